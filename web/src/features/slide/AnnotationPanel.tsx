import { useEffect, useMemo, useRef } from 'react';
import { App, Button, Empty, Flex, Form, Input, Modal, Radio, Select, Space, Tooltip, Typography } from 'antd';
import { AimOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DEFAULT_COLOR, FONT_SIZES, fromGeoJSON, LINE_WIDTHS, PALETTE, toGeoJSON, type Annotation } from './annotations';
import { measureText } from './AnnotationLayer';

export const COLORS = [DEFAULT_COLOR, ...PALETTE];

export function ColorSwatches({ value, onChange }: { value?: string; onChange?: (c: string) => void }) {
  return (
    <Space size={6} wrap>
      {COLORS.map((c) => (
        <button
          key={c}
          type="button"
          aria-label={c}
          title={c}
          onClick={() => onChange?.(c)}
          style={{ width: 22, height: 22, borderRadius: 11, background: c, cursor: 'pointer', border: value?.toUpperCase() === c ? '2px solid #111827' : '2px solid #fff', boxShadow: '0 0 0 1px #d1d5db' }}
        />
      ))}
    </Space>
  );
}

export interface LabelValues {
  color: string;
  lineWidth: number;
  description: string;
  fontSize?: number;
}

/** The add / edit form of a label (spec 1 §4: finishing a shape opens the add form). */
export function AnnotationForm({ open, initial, isText, editing, onOk, onCancel }: { open: boolean; initial: LabelValues; isText: boolean; editing: boolean; onOk: (v: LabelValues) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LabelValues>();
  useEffect(() => {
    if (open) form.setFieldsValue(initial);
  }, [open, initial, form]);
  return (
    <Modal open={open} title={editing ? t('slide.ann.edit') : t('slide.ann.add')} onCancel={onCancel} onOk={() => form.submit()} okText={t('common.save')} cancelText={t('common.cancel')} destroyOnHidden width={420} zIndex={3000}>
      <Form form={form} layout="vertical" onFinish={onOk} initialValues={initial}>
        <Form.Item name="color" label={t('slide.ann.color')}>
          <ColorSwatches />
        </Form.Item>
        {isText ? (
          <Form.Item name="fontSize" label={t('slide.ann.fontSize')}>
            <Select options={FONT_SIZES.map((v) => ({ value: v, label: `${v}px` }))} style={{ width: 120 }} />
          </Form.Item>
        ) : (
          <Form.Item name="lineWidth" label={t('slide.ann.lineWidth')}>
            <Radio.Group optionType="button" options={LINE_WIDTHS.map((v) => ({ value: v, label: String(v) }))} />
          </Form.Item>
        )}
        <Form.Item name="description" label={t('slide.ann.description')} rules={isText ? [{ required: true, whitespace: true, message: t('slide.ann.textRequired') }] : []}>
          <Input.TextArea rows={4} maxLength={500} showCount data-testid="ann-description" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface PanelProps {
  list: Annotation[];
  selectedId: number | null;
  mpp: number;
  slideName: string;
  onSelect: (a: Annotation) => void;
  onEdit: (a: Annotation) => void;
  onDelete: (a: Annotation) => void;
  onImport: (list: Annotation[]) => void;
  onClear: () => void;
}

const SHOWN = 300;

/** The list of labels with jump-to, edit, delete and GeoJSON export / import. */
export function AnnotationPanel({ list, selectedId, mpp, slideName, onSelect, onEdit, onDelete, onImport, onClear }: PanelProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const file = useRef<HTMLInputElement>(null);
  const items = useMemo(() => {
    const sel = list.find((a) => a.id === selectedId);
    const head = list.slice(-SHOWN).reverse();
    return sel && !head.includes(sel) ? [sel, ...head] : head;
  }, [list, selectedId]);

  const exportJson = () => {
    const blob = new Blob([JSON.stringify(toGeoJSON(list), null, 1)], { type: 'application/geo+json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${slideName.replace(/\.[^.]+$/, '') || 'slide'}.annotations.geojson`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  const importJson = async (f: File) => {
    try {
      const got = fromGeoJSON(JSON.parse(await f.text()), list);
      onImport(got);
      void message.success(t('slide.ann.imported', { count: got.length }));
    } catch {
      void message.error(t('slide.ann.importFailed'));
    }
  };

  return (
    <Flex vertical style={{ height: '100%' }}>
      <Flex align="center" justify="space-between" style={{ padding: '10px 12px', borderBottom: '1px solid #eef0f3' }}>
        <Typography.Text strong>
          {t('slide.ann.title')} <Typography.Text type="secondary">({list.length})</Typography.Text>
        </Typography.Text>
        <Space size={4}>
          <Tooltip title={t('slide.ann.export')}>
            <Button size="small" icon={<DownloadOutlined />} onClick={exportJson} disabled={!list.length} aria-label={t('slide.ann.export')} data-testid="ann-export" />
          </Tooltip>
          <Tooltip title={t('slide.ann.import')}>
            <Button size="small" icon={<UploadOutlined />} onClick={() => file.current?.click()} aria-label={t('slide.ann.import')} />
          </Tooltip>
          <Tooltip title={t('slide.ann.clear')}>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={!list.length}
              aria-label={t('slide.ann.clear')}
              onClick={() => modal.confirm({ title: t('slide.ann.clearConfirm'), okButtonProps: { danger: true }, okText: t('common.delete'), cancelText: t('common.cancel'), onOk: onClear, zIndex: 3000 })}
            />
          </Tooltip>
          <input
            ref={file}
            type="file"
            accept=".json,.geojson,application/json,application/geo+json"
            hidden
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void importJson(f);
              e.target.value = '';
            }}
          />
        </Space>
      </Flex>
      <div style={{ flex: 1, overflow: 'auto' }} data-testid="ann-list">
        {items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('slide.ann.empty')} style={{ marginTop: 40 }} />
        ) : (
          items.map((a) => {
            const m = measureText(a.tool, a.points, mpp);
            return (
              <div
                key={a.id}
                data-testid={`ann-item-${a.id}`}
                onClick={() => onSelect(a)}
                style={{ padding: '8px 12px', borderBottom: '1px solid #f3f4f6', cursor: 'pointer', background: a.id === selectedId ? '#eaf3ff' : undefined, display: 'flex', gap: 8, alignItems: 'flex-start' }}
              >
                <span style={{ width: 10, height: 10, borderRadius: 5, background: a.color, marginTop: 6, flex: 'none' }} />
                <div style={{ flex: 1, minWidth: 0 }}>
                  <div>
                    <Typography.Text>{a.measure ? t('slide.ann.measure') : t(`slide.tool.${a.tool}`)}</Typography.Text>
                    <Typography.Text type="secondary"> #{a.id}</Typography.Text>
                  </div>
                  {m && a.tool !== 'text' && <div style={{ fontSize: 12, color: '#4b5563', fontVariantNumeric: 'tabular-nums' }} data-testid="ann-measure">{m}</div>}
                  {a.description && (
                    <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, fontSize: 12 }}>
                      {a.description}
                    </Typography.Paragraph>
                  )}
                </div>
                <Space size={0} onClick={(e) => e.stopPropagation()}>
                  <Button type="text" size="small" icon={<AimOutlined />} onClick={() => onSelect(a)} aria-label={t('slide.ann.jump')} />
                  <Button type="text" size="small" icon={<EditOutlined />} onClick={() => onEdit(a)} aria-label={t('common.edit')} />
                  <Button type="text" size="small" danger icon={<DeleteOutlined />} onClick={() => onDelete(a)} aria-label={t('common.delete')} />
                </Space>
              </div>
            );
          })
        )}
        {list.length > SHOWN && (
          <Typography.Paragraph type="secondary" style={{ padding: 12, fontSize: 12 }}>
            {t('slide.ann.more', { count: list.length - SHOWN })}
          </Typography.Paragraph>
        )}
      </div>
    </Flex>
  );
}
