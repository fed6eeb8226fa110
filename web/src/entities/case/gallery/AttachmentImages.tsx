// The image attachments of a case being registered or edited, as a gallery
// (spec 1 §4 Gallery): server-made thumbnails, the viewer (zoom, ←/→, Esc)
// and, unless the form is read-only, delete. Files uploaded but not yet
// saved with the case show too: thumbnails come from the files domain.
import { Button, Flex, Image, Popconfirm, Spin, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useQueries } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchImage, galleryKeys, useImageUrl } from './api';
import { useObjectUrls } from './Gallery';

const THUMB = 148;

/** Whether a file name is one of the gallery's image types. */
export const isImageName = (name: string) => /\.(jpe?g|png|gif|webp|bmp)$/i.test(name);

export interface AttachmentImage {
  file_id: number;
  filename: string;
}

export function AttachmentImages<T extends AttachmentImage>({ items, readOnly, onDelete, extra }: {
  items: T[];
  readOnly?: boolean;
  onDelete?: (it: T) => void;
  /** More controls under a thumbnail (the attachment's type). */
  extra?: (it: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState({ open: false, current: 0 });
  const full = useQueries({
    queries: items.map((it) => ({
      queryKey: galleryKeys.image(`/api/files/${it.file_id}`, 'file'),
      queryFn: () => fetchImage(`/api/files/${it.file_id}`),
      enabled: preview.open,
      staleTime: Infinity,
      gcTime: 60_000,
    })),
  });
  const urls = useObjectUrls(full.map((q) => q.data));
  if (items.length === 0) return null;
  return (
    <div data-testid="attachment-gallery" style={{ marginTop: 8 }}>
      <Typography.Text type="secondary">{t('case.attachment.images', { n: items.length })}</Typography.Text>
      <Image.PreviewGroup
        items={items.map((_, i) => urls[i] ?? '')}
        preview={{
          visible: preview.open,
          current: preview.current,
          onVisibleChange: (open) => setPreview((p) => ({ ...p, open })),
          onChange: (current) => setPreview((p) => ({ ...p, current })),
          countRender: (cur, total) => `${items[cur - 1]?.filename ?? ''} · ${cur} / ${total}`,
        }}
      />
      <Flex wrap gap={12} role="list" aria-label={t('gallery.title')} style={{ marginTop: 6 }}>
        {items.map((it, i) => (
          <Tile key={it.file_id} it={it} onOpen={() => setPreview({ open: true, current: i })}>
            {extra?.(it)}
            {!readOnly && onDelete && (
              <Popconfirm title={t('gallery.deleteConfirm')} okText={t('common.delete')} cancelText={t('common.cancel')} okButtonProps={{ danger: true }} onConfirm={() => onDelete(it)}>
                <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`${t('common.delete')} ${it.filename}`} />
              </Popconfirm>
            )}
          </Tile>
        ))}
      </Flex>
    </div>
  );
}

function Tile({ it, onOpen, children }: { it: AttachmentImage; onOpen: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  const src = useImageUrl(`/api/files/${it.file_id}/thumb`, 'file');
  return (
    <div role="listitem" data-testid={`attachment-image-${it.file_id}`} style={{ width: THUMB + 16, padding: 8, border: '1px solid #d9d9d9', borderRadius: 8, background: '#fff' }}>
      <button
        type="button"
        onClick={onOpen}
        aria-label={t('gallery.open', { name: it.filename })}
        style={{ all: 'unset', display: 'flex', width: THUMB, height: THUMB * 0.75, alignItems: 'center', justifyContent: 'center', background: '#f5f5f5', borderRadius: 4, cursor: 'zoom-in', outlineOffset: 2 }}
      >
        {src ? <img src={src} alt={it.filename} style={{ maxWidth: '100%', maxHeight: '100%' }} draggable={false} /> : <Spin size="small" />}
      </button>
      <Typography.Text ellipsis={{ tooltip: it.filename }} style={{ display: 'block', marginTop: 6, fontSize: 12 }}>
        {it.filename}
      </Typography.Text>
      <Flex justify="space-between" align="center" gap={4} style={{ marginTop: 4 }}>
        {children}
      </Flex>
    </div>
  );
}
