// A case's image attachments as a gallery (spec 1 §4 Gallery): thumbnails
// the server makes small, a viewer with zoom and keyboard navigation,
// download, delete, check for the report, reorder by drag or keyboard, and
// the full-screen annotation editor.
import { App, Button, Checkbox, Flex, Image, Popconfirm, Space, Spin, Tooltip, Typography } from 'antd';
import { ArrowLeftOutlined, ArrowRightOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, HolderOutlined } from '@ant-design/icons';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiError } from '../../../components/ui/useApiError';
import { downloadBlob } from '../../../lib/download';
import { fetchImage, galleryKeys, useArrange, useDeleteImage, useGallery, useImageUrl, type GalleryImage } from './api';
import { moveItem } from './order';
import { ImageEditor } from './ImageEditor';

const THUMB = 168;

/** The gallery of a case's images; read-only when the caller may not edit the case. */
export function Gallery({ caseId }: { caseId: number }) {
  const { t } = useTranslation();
  const g = useGallery(caseId);
  const arrange = useArrange();
  const showError = useApiError();
  const { message } = App.useApp();
  const [order, setOrder] = useState<GalleryImage[] | null>(null);
  const [preview, setPreview] = useState<{ open: boolean; current: number }>({ open: false, current: 0 });
  const [editing, setEditing] = useState<number | null>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const items = order ?? g.data?.items ?? [];
  const editable = !!g.data?.editable;

  useEffect(() => setOrder(null), [g.data]);

  const full = useQueries({
    queries: items.map((it) => ({
      queryKey: galleryKeys.image(it.path, it.version),
      queryFn: () => fetchImage(it.path),
      enabled: preview.open,
      staleTime: Infinity,
      gcTime: 60_000,
    })),
  });
  const blobs = full.map((q) => q.data);
  const fullUrls = useObjectUrls(blobs);

  const save = (next: GalleryImage[]) => {
    setOrder(next);
    arrange.mutate(
      { caseId, items: next.map((i) => ({ id: i.id, check: i.check })) },
      { onError: (e) => { setOrder(null); showError(e); } },
    );
  };
  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    save(moveItem(items, from, to));
  };
  const download = async (it: GalleryImage) => {
    try {
      downloadBlob(await fetchImage(it.path), it.name);
    } catch (e) {
      showError(e);
    }
  };

  if (g.isLoading) return <Spin />;
  if (items.length === 0) return <Typography.Text type="secondary">{t('gallery.none')}</Typography.Text>;
  const editingItem = items.find((i) => i.id === editing) ?? null;

  return (
    <div data-testid="gallery">
      <Image.PreviewGroup
        items={items.map((_, i) => fullUrls[i] ?? '')}
        preview={{
          visible: preview.open,
          current: preview.current,
          zIndex: 3000,
          onVisibleChange: (open) => setPreview((p) => ({ ...p, open })),
          onChange: (current) => setPreview((p) => ({ ...p, current })),
          countRender: (cur, total) => `${items[cur - 1]?.name ?? ''} · ${cur} / ${total}`,
          toolbarRender: (original, info) => (
            <Space size={12} direction="vertical" align="center">
              {original}
              <Space>
                <Button icon={<DownloadOutlined />} onClick={() => download(items[info.current])}>{t('gallery.download')}</Button>
                {editable && (
                  <Button type="primary" icon={<EditOutlined />} data-testid="gallery-edit"
                    onClick={() => { setEditing(items[info.current].id); setPreview((p) => ({ ...p, open: false })); }}>
                    {t('gallery.edit')}
                  </Button>
                )}
              </Space>
            </Space>
          ),
        }}
      />
      <Flex wrap gap={12} role="list" aria-label={t('gallery.title')}>
        {items.map((it, i) => (
          <Thumb
            key={it.id}
            it={it}
            index={i}
            count={items.length}
            editable={editable}
            dragging={dragging === i}
            onOpen={() => setPreview({ open: true, current: i })}
            onCheck={(check) => save(items.map((x) => (x.id === it.id ? { ...x, check } : x)))}
            onMove={(to) => move(i, to)}
            onDragStart={() => setDragging(i)}
            onDrop={() => { if (dragging !== null) move(dragging, i); setDragging(null); }}
            onDownload={() => download(it)}
            onDeleted={() => message.success(t('gallery.deleted'))}
            caseId={caseId}
          />
        ))}
      </Flex>
      {editingItem && (
        <ImageEditor caseId={caseId} item={editingItem} open onClose={() => setEditing(null)} onSaved={() => message.success(t('gallery.saved'))} />
      )}
    </div>
  );
}

/** Object URLs of blobs, revoked when they change or the caller goes. */
export function useObjectUrls(blobs: (Blob | undefined)[]): (string | undefined)[] {
  const key = blobs.map((b) => (b ? `${b.size}:${b.type}` : '-')).join('|');
  const [urls, setUrls] = useState<(string | undefined)[]>([]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stable = useMemo(() => blobs, [key]);
  useEffect(() => {
    const u = stable.map((b) => (b ? URL.createObjectURL(b) : undefined));
    setUrls(u);
    return () => u.forEach((x) => x && URL.revokeObjectURL(x));
  }, [stable]);
  return urls;
}

function Thumb(props: {
  it: GalleryImage;
  index: number;
  count: number;
  editable: boolean;
  dragging: boolean;
  caseId: number;
  onOpen: () => void;
  onCheck: (c: boolean) => void;
  onMove: (to: number) => void;
  onDragStart: () => void;
  onDrop: () => void;
  onDownload: () => void;
  onDeleted: () => void;
}) {
  const { it, index, count, editable, caseId } = props;
  const { t } = useTranslation();
  const src = useImageUrl(it.thumb, it.version);
  const del = useDeleteImage();
  const showError = useApiError();
  const canDrag = editable && count > 1;
  return (
    <div
      role="listitem"
      data-testid={`gallery-item-${it.id}`}
      draggable={canDrag}
      onDragStart={(e: DragEvent) => { e.dataTransfer.effectAllowed = 'move'; props.onDragStart(); }}
      onDragOver={(e: DragEvent) => canDrag && e.preventDefault()}
      onDrop={(e: DragEvent) => { e.preventDefault(); props.onDrop(); }}
      style={{
        width: THUMB + 16, padding: 8, border: '1px solid #d9d9d9', borderRadius: 8, background: '#fff',
        opacity: props.dragging ? 0.5 : 1, cursor: canDrag ? 'grab' : undefined,
      }}
    >
      <button
        type="button"
        onClick={props.onOpen}
        aria-label={t('gallery.open', { name: it.name })}
        style={{ all: 'unset', display: 'flex', width: THUMB, height: THUMB * 0.75, alignItems: 'center', justifyContent: 'center', background: '#f5f5f5', borderRadius: 4, cursor: 'zoom-in', outlineOffset: 2 }}
      >
        {src ? <img src={src} alt={it.name} style={{ maxWidth: '100%', maxHeight: '100%' }} draggable={false} /> : <Spin size="small" />}
      </button>
      <Typography.Text ellipsis={{ tooltip: it.name }} style={{ display: 'block', marginTop: 6, fontSize: 12 }}>
        {canDrag && <HolderOutlined aria-hidden style={{ marginRight: 4, color: '#595959' }} />}
        <Link to={`/attach/${it.id}`} title={it.name}>{it.name}</Link>
      </Typography.Text>
      <Checkbox checked={it.check} disabled={!editable} onChange={(e) => props.onCheck(e.target.checked)} data-testid={`gallery-check-${it.id}`} style={{ marginTop: 4 }}>
        {t('gallery.check')}
      </Checkbox>
      <Flex justify="flex-end" align="center" style={{ marginTop: 2 }}>
        <Space size={0}>
          {canDrag && (
            <>
              <Tooltip title={t('gallery.moveLeft')}>
                <Button type="text" size="small" icon={<ArrowLeftOutlined />} aria-label={t('gallery.moveLeft')} disabled={index === 0} onClick={() => props.onMove(index - 1)} />
              </Tooltip>
              <Tooltip title={t('gallery.moveRight')}>
                <Button type="text" size="small" icon={<ArrowRightOutlined />} aria-label={t('gallery.moveRight')} disabled={index === count - 1} onClick={() => props.onMove(index + 1)} />
              </Tooltip>
            </>
          )}
          <Tooltip title={t('gallery.download')}>
            <Button type="text" size="small" icon={<DownloadOutlined />} aria-label={t('gallery.download')} onClick={props.onDownload} />
          </Tooltip>
          {it.deletable && (
            <Popconfirm
              title={t('gallery.deleteConfirm')}
              okText={t('common.delete')}
              cancelText={t('common.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => del.mutateAsync({ caseId, fileId: it.id }).then(props.onDeleted, showError)}
            >
              <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} />
            </Popconfirm>
          )}
        </Space>
      </Flex>
    </div>
  );
}

