import { useRef, useState } from 'react';
import { App, Button, ConfigProvider, Flex, Progress, Select, Table, Typography, Upload } from 'antd';
import { AttachmentImages, isImageName } from '../../entities/case/gallery/AttachmentImages';
import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MAX_UPLOAD_BYTES, formatSize, uploadFile } from './transfer';

export const FULL_BODY = 5;
export const ATTACHMENT_TYPE_CODES = [0, 1, 2, 3, 4, 5, 6, 7];
const DEFAULT_TYPE = 6;

export interface AttachmentValue {
  file_id: number;
  type: number;
  filename: string;
  size: number;
  url?: string;
}

interface Pending {
  key: string;
  name: string;
  percent: number;
}

/** At most one full-body image (spec 2 §5). */
export const fullBodyCount = (list: AttachmentValue[] | undefined) => (list ?? []).filter((a) => a.type === FULL_BODY).length;

/** Case attachments: upload with progress (≤ 200 MB each), a type per file, remove; images as a gallery. */
export function AttachmentField({ value = [], onChange, id }: { value?: AttachmentValue[]; onChange?: (v: AttachmentValue[]) => void; id?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [pending, setPending] = useState<Pending[]>([]);
  const [nextType, setNextType] = useState(DEFAULT_TYPE);
  const hasFullBody = fullBodyCount(value) > 0;
  // Read-only when the form is (a case the caller may no longer change).
  const readOnly = !!ConfigProvider.useConfig().componentDisabled;
  const images = value.filter((a) => isImageName(a.filename));
  const others = value.filter((a) => !isImageName(a.filename));
  const remove = (fileId: number) => onChange?.(value.filter((x) => x.file_id !== fileId));
  // Keep the latest list for uploads finishing after other changes.
  const latest = useRef(value);
  latest.current = value;

  const start = (file: File) => {
    if (file.size > MAX_UPLOAD_BYTES) {
      void message.error(t('case.attachment.tooLarge', { name: file.name }));
      return false;
    }
    const key = `${file.name}-${Date.now()}-${Math.random()}`;
    const type = nextType === FULL_BODY && hasFullBody ? DEFAULT_TYPE : nextType;
    setPending((p) => [...p, { key, name: file.name, percent: 0 }]);
    uploadFile(file, (percent) => setPending((p) => p.map((x) => (x.key === key ? { ...x, percent } : x))))
      .then((f) => {
        latest.current = [...latest.current, { file_id: f.id, type, filename: f.filename, size: f.size, url: f.url }];
        onChange?.(latest.current);
        if (type === FULL_BODY) setNextType(DEFAULT_TYPE);
      })
      .catch((e: Error) => void message.error(t('case.attachment.failed', { name: file.name, reason: e.message })))
      .finally(() => setPending((p) => p.filter((x) => x.key !== key)));
    return false;
  };

  const setType = (fileId: number, type: number) => onChange?.(value.map((a) => (a.file_id === fileId ? { ...a, type } : a)));
  const typeOptions = (current: number | null) =>
    ATTACHMENT_TYPE_CODES.map((c) => {
      const taken = c === FULL_BODY && hasFullBody && current !== FULL_BODY;
      // A second full-body image is refused (spec 2 §5): the option says why.
      return { value: c, label: taken ? `${t(`case.attachmentType.${c}`)} · ${t('case.rule.oneFullBody')}` : t(`case.attachmentType.${c}`), disabled: taken };
    });

  return (
    <div id={id}>
      <Flex gap={8} align="center" wrap style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t('case.attachment.typeOfNext')}</Typography.Text>
        <Select value={nextType} onChange={setNextType} options={typeOptions(null)} style={{ width: 200 }} aria-label={t('case.attachment.type')} />
        <Upload multiple showUploadList={false} beforeUpload={start}>
          <Button icon={<UploadOutlined />} data-testid="attachment-upload">
            {t('case.attachment.upload')}
          </Button>
        </Upload>
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          {t('case.attachment.hint')}
        </Typography.Text>
      </Flex>
      {pending.map((p) => (
        <Flex key={p.key} gap={8} align="center" style={{ maxWidth: 560 }}>
          <PaperClipOutlined />
          <Typography.Text ellipsis style={{ width: 220 }}>
            {p.name}
          </Typography.Text>
          <Progress percent={p.percent} size="small" style={{ flex: 1, margin: 0 }} aria-label={p.name} />
        </Flex>
      ))}
      <AttachmentImages
        items={images}
        readOnly={readOnly}
        onDelete={(a) => remove(a.file_id)}
        extra={(a) =>
          readOnly ? (
            <Typography.Text style={{ fontSize: 12 }}>{t(`case.attachmentType.${a.type}`)}</Typography.Text>
          ) : (
            <Select size="small" value={a.type} onChange={(x) => setType(a.file_id, x)} options={typeOptions(a.type)} style={{ flex: 1, minWidth: 0 }} aria-label={`${t('case.attachment.type')} ${a.filename}`} />
          )
        }
      />
      {others.length > 0 && (
        <Table
          size="small"
          rowKey="file_id"
          pagination={false}
          dataSource={others}
          style={{ marginTop: 8 }}
          columns={[
            { key: 'file', dataIndex: 'filename', title: t('case.attachment.file'), ellipsis: true, render: (v: string, a) => (a.url ? <a href={a.url} target="_blank" rel="noreferrer">{v}</a> : v) },
            { key: 'size', dataIndex: 'size', title: t('case.attachment.size'), width: 110, render: (v: number) => formatSize(v) },
            { key: 'type', dataIndex: 'type', title: t('case.attachment.type'), width: 220, render: (v: number, a) => <Select size="small" value={v} onChange={(x) => setType(a.file_id, x)} options={typeOptions(v)} style={{ width: 200 }} aria-label={t('case.attachment.type')} /> },
            { key: 'rm', title: '', width: 60, render: (_: unknown, a) => <Button type="text" danger size="small" icon={<DeleteOutlined />} aria-label={t('common.delete')} onClick={() => remove(a.file_id)} /> },
          ]}
        />
      )}
    </div>
  );
}
