// The administrators' tabs of /setting/diagnosisTemplate for structured
// reports: templates (with a field editor and their order), report rules (per
// template, an editor per rule type) and the symbols of the diagnosis editor.
import { useEffect, useState } from 'react';
import { App, Button, Checkbox, Drawer, Empty, Flex, Form, Input, InputNumber, Popconfirm, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '../../../lib/searchParams';
import { FormDrawer } from '../../../components/ui/FormDrawer';
import { useApiError } from '../../../components/ui/useApiError';
import { formatDateTime } from '../../../lib/format';
import {
  FIELD_TYPES,
  KINDS,
  useDeleteRule,
  useDeleteStructTemplate,
  useRankStructTemplate,
  useRules,
  useSaveRule,
  useSaveStructTemplate,
  useSaveSymbols,
  useStructTemplates,
  useSymbols,
  type ReportRule,
  type StructTemplate,
  type StructTemplateInput,
} from './api';
import { RuleEditor, describeRule, type RuleDraft } from './RuleEditor';
import { optionLabel, templateName } from './StructuredForm';

const toInput = (x: StructTemplate, enabled = x.enabled): StructTemplateInput => ({
  name: x.name,
  name_en: x.name_en,
  kind: x.kind,
  library_id: x.library_id ?? undefined,
  enabled,
  fields: x.fields ?? [],
});

export function StructTemplatesTab() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [, setParams] = useSearchParams();
  const list = useStructTemplates();
  const saveM = useSaveStructTemplate();
  const del = useDeleteStructTemplate();
  const rank = useRankStructTemplate();
  const [editing, setEditing] = useState<StructTemplate | 'new' | null>(null);
  const [form] = Form.useForm<StructTemplateInput>();
  const rows = list.data ?? [];

  const open = (x: StructTemplate | 'new') => {
    setEditing(x);
    const v: StructTemplateInput = x === 'new' ? { name: '', kind: 'routine', enabled: true, fields: [{ key: '', label: '', type: 'text' }] } : toInput(x);
    form.setFieldsValue({ ...v, fields: (v.fields ?? []).map((f) => ({ ...f, options: f.options ?? undefined, options_en: f.options_en ?? undefined, default: f.default ?? undefined })) });
  };
  const submit = (v: StructTemplateInput) =>
    saveM.mutate(
      { id: editing && editing !== 'new' ? editing.id : undefined, body: { ...v, fields: (v.fields ?? []).map((f) => ({ ...f, options: f.options ?? [], options_en: f.options_en ?? [], default: f.default ?? undefined })) } },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          setEditing(null);
        },
        onError: (e) => showError(e, form),
      },
    );
  const move = (x: StructTemplate, by: number) => rank.mutate({ id: x.id, position: rows.indexOf(x) + by }, { onError: (e) => showError(e) });

  return (
    <>
      <Flex justify="flex-end" style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="struct-new">
          {t('structured.admin.new')}
        </Button>
      </Flex>
      <Table<StructTemplate>
        rowKey="id"
        size="middle"
        loading={list.isLoading}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('structured.noTemplates') }}
        data-testid="struct-table"
        columns={[
          {
            key: 'rank',
            title: t('structured.admin.rank'),
            width: 96,
            render: (_, x, i) => (
              <Space size={2}>
                <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(x, -1)} aria-label={t('structured.admin.up', { name: templateName(x, i18n.language) })} />
                <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={i === rows.length - 1} onClick={() => move(x, 1)} aria-label={t('structured.admin.down', { name: templateName(x, i18n.language) })} />
              </Space>
            ),
          },
          { key: 'name', title: t('structured.admin.name'), render: (_, x) => <Typography.Text strong>{templateName(x, i18n.language)}</Typography.Text> },
          { key: 'kind', title: t('structured.admin.kind'), width: 120, render: (_, x) => <Tag bordered={false}>{t(`structured.kind.${x.kind}`)}</Tag> },
          { key: 'fields', title: t('structured.admin.fields'), width: 90, render: (_, x) => x.fields?.length ?? 0 },
          {
            key: 'rules',
            title: t('structured.admin.rules'),
            width: 110,
            render: (_, x) => (
              <Button size="small" type="link" onClick={() => setParams({ tab: 'rules', template: String(x.id) }, { replace: true })} data-testid={`struct-rules-${x.id}`}>
                {t('structured.admin.ruleCount', { count: x.rule_count })}
              </Button>
            ),
          },
          {
            key: 'enabled',
            title: t('structured.admin.enabled'),
            width: 100,
            render: (_, x) => (
              <Switch
                size="small"
                checked={x.enabled}
                aria-label={t('structured.admin.enabledOf', { name: templateName(x, i18n.language) })}
                onChange={(on) => saveM.mutate({ id: x.id, body: toInput(x, on) }, { onError: (e) => showError(e) })}
              />
            ),
          },
          { key: 'updated_at', dataIndex: 'updated_at', title: t('diagnosis.template.updatedAt'), width: 170, render: (x: string) => formatDateTime(x) },
          {
            key: 'actions',
            title: t('common.actions'),
            width: 150,
            render: (_, x) => (
              <Space size={4}>
                <Button size="small" type="link" onClick={() => open(x)} data-testid={`struct-edit-${x.id}`}>
                  {t('common.edit')}
                </Button>
                <Popconfirm title={t('confirm.deleteTitle')} onConfirm={() => del.mutateAsync(x.id).catch(showError)}>
                  <Button size="small" type="link" danger>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <FormDrawer<StructTemplateInput>
        title={editing === 'new' ? t('structured.admin.new') : t('structured.admin.edit')}
        open={!!editing}
        form={form}
        saving={saveM.isPending}
        width={980}
        onClose={() => setEditing(null)}
        onFinish={submit}
        testId="struct-form"
      >
        <Flex gap={12} wrap>
          <Form.Item name="name" label={t('structured.admin.name')} rules={[{ required: true, whitespace: true }]} style={{ flex: '2 1 260px' }}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="name_en" label={t('structured.admin.nameEn')} style={{ flex: '2 1 260px' }}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="kind" label={t('structured.admin.kind')} style={{ flex: '1 1 140px' }}>
            <Select options={KINDS.map((k) => ({ value: k, label: t(`structured.kind.${k}`) }))} />
          </Form.Item>
          <Form.Item name="enabled" label={t('structured.admin.enabled')} valuePropName="checked" style={{ flex: '0 0 auto' }}>
            <Switch />
          </Form.Item>
        </Flex>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {t('structured.admin.fields')}
        </Typography.Title>
        <Form.List name="fields">
          {(items, { add, remove, move: moveField }) => (
            <Flex vertical gap={8} data-testid="field-editor">
              {items.map(({ key, name }, i) => (
                <FieldRow key={key} name={name} index={i} count={items.length} onRemove={() => remove(name)} onMove={(by) => moveField(i, i + by)} />
              ))}
              <Button icon={<PlusOutlined />} onClick={() => add({ key: '', label: '', type: 'text' })} data-testid="field-add">
                {t('structured.admin.addField')}
              </Button>
            </Flex>
          )}
        </Form.List>
      </FormDrawer>
    </>
  );
}

function FieldRow({ name, index, count, onRemove, onMove }: { name: number; index: number; count: number; onRemove: () => void; onMove: (by: number) => void }) {
  const { t } = useTranslation();
  const type = Form.useWatch(['fields', name, 'type']) as string | undefined;
  const n = index + 1;
  const lab = (k: string) => t(`structured.field.${k}`);
  return (
    <div style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: '8px 10px 0' }} data-testid={`field-row-${index}`}>
      <Flex gap={8} wrap align="flex-start">
        <Form.Item name={[name, 'key']} label={lab('key')} rules={[{ required: true, pattern: /^[a-z][a-z0-9_]{0,39}$/, message: t('structured.field.keyRule') }]} style={{ flex: '1 1 130px', marginBottom: 8 }}>
          <Input maxLength={40} className="tp-mono" aria-label={`${lab('key')} ${n}`} />
        </Form.Item>
        <Form.Item name={[name, 'label']} label={lab('label')} rules={[{ required: true, whitespace: true }]} style={{ flex: '1 1 140px', marginBottom: 8 }}>
          <Input maxLength={100} aria-label={`${lab('label')} ${n}`} />
        </Form.Item>
        <Form.Item name={[name, 'label_en']} label={lab('labelEn')} style={{ flex: '1 1 140px', marginBottom: 8 }}>
          <Input maxLength={100} aria-label={`${lab('labelEn')} ${n}`} />
        </Form.Item>
        <Form.Item name={[name, 'type']} label={lab('type')} style={{ flex: '0 0 130px', marginBottom: 8 }}>
          <Select aria-label={`${lab('type')} ${n}`} options={FIELD_TYPES.map((x) => ({ value: x, label: t(`structured.type.${x}`) }))} />
        </Form.Item>
        <Form.Item name={[name, 'unit']} label={lab('unit')} style={{ flex: '0 0 80px', marginBottom: 8 }}>
          <Input maxLength={20} aria-label={`${lab('unit')} ${n}`} />
        </Form.Item>
        <Form.Item name={[name, 'required']} label={lab('required')} valuePropName="checked" style={{ flex: '0 0 auto', marginBottom: 8 }}>
          <Checkbox aria-label={`${lab('required')} ${n}`} />
        </Form.Item>
        <Space size={2} style={{ paddingTop: 30 }}>
          <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={index === 0} onClick={() => onMove(-1)} aria-label={t('structured.admin.fieldUp', { n })} />
          <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={index === count - 1} onClick={() => onMove(1)} aria-label={t('structured.admin.fieldDown', { n })} />
          <Button size="small" type="text" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label={t('structured.admin.fieldRemove', { n })} />
        </Space>
      </Flex>
      {(type === 'select' || type === 'multiselect') && (
        <Flex gap={8} wrap>
          <Form.Item name={[name, 'options']} label={lab('options')} style={{ flex: '1 1 300px', marginBottom: 8 }} extra={t('structured.field.optionsHelp')}>
            <Select mode="tags" tokenSeparators={['\n']} open={false} suffixIcon={null} aria-label={`${lab('options')} ${n}`} />
          </Form.Item>
          <Form.Item name={[name, 'options_en']} label={lab('optionsEn')} style={{ flex: '1 1 300px', marginBottom: 8 }} extra={t('structured.field.optionsEnHelp')}>
            <Select mode="tags" tokenSeparators={['\n']} open={false} suffixIcon={null} aria-label={`${lab('optionsEn')} ${n}`} data-testid={`field-options-en-${index}`} />
          </Form.Item>
        </Flex>
      )}
      <Form.Item name={[name, 'default']} label={lab('default')} style={{ maxWidth: 420, marginBottom: 8 }}>
        <DefaultInput type={type} name={name} label={`${lab('default')} ${n}`} testId={`field-default-${index}`} />
      </Form.Item>
    </div>
  );
}

/** The default of a field, an input of the field's type (choices from its options). */
export function DefaultInput({ id, type, name, label, testId, value, onChange }: {
  id?: string;
  type?: string;
  name: number;
  label: string;
  testId: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const { t, i18n } = useTranslation();
  const options = (Form.useWatch(['fields', name, 'options'], { preserve: true }) as string[] | undefined) ?? [];
  const optionsEn = Form.useWatch(['fields', name, 'options_en'], { preserve: true }) as string[] | undefined;
  const common = { id, 'aria-label': label, 'data-testid': testId, placeholder: t('structured.field.noDefault') };
  const choices = options.map((o) => ({ value: o, label: optionLabel({ options, options_en: optionsEn }, o, i18n.language) }));
  switch (type) {
    case 'number':
      return <InputNumber {...common} value={typeof value === 'number' ? value : null} onChange={(v) => onChange?.(v ?? undefined)} style={{ width: 200 }} />;
    case 'select':
      return <Select {...common} allowClear value={typeof value === 'string' ? value : undefined} onChange={(v) => onChange?.(v)} options={choices} />;
    case 'multiselect':
      return <Select {...common} mode="multiple" allowClear value={Array.isArray(value) ? value : []} onChange={(v: string[]) => onChange?.(v.length ? v : undefined)} options={choices} />;
    case 'bool':
      return (
        <Select
          {...common}
          allowClear
          value={typeof value === 'boolean' ? String(value) : undefined}
          onChange={(v?: string) => onChange?.(v === undefined ? undefined : v === 'true')}
          options={[
            { value: 'true', label: t('structured.yes') },
            { value: 'false', label: t('structured.no') },
          ]}
        />
      );
    default:
      return <Input {...common} maxLength={2000} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange?.(e.target.value || undefined)} />;
  }
}

export function RulesTab() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [params, setParams] = useSearchParams();
  const templates = useStructTemplates();
  const templateId = Number(params.get('template')) || templates.data?.[0]?.id;
  const template = templates.data?.find((x) => x.id === templateId);
  const fields = template?.fields ?? [];
  const rules = useRules(template?.id);
  const saveM = useSaveRule();
  const del = useDeleteRule();
  const [editing, setEditing] = useState<{ id?: number; draft: RuleDraft } | null>(null);

  const submit = () => {
    if (!editing || !template) return;
    saveM.mutate(
      { id: editing.id, body: { template_id: template.id, type: editing.draft.type, definition: editing.draft.definition, message: editing.draft.message ?? '', message_en: editing.draft.message_en ?? '' } },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          setEditing(null);
        },
        onError: (e) => showError(e),
      },
    );
  };

  return (
    <>
      <Flex justify="space-between" gap={12} style={{ marginBottom: 12 }} wrap>
        <Flex gap={8} align="center">
          <label htmlFor="rules-template">{t('structured.template')}</label>
          <Select
            id="rules-template"
            style={{ minWidth: 320 }}
            value={template?.id}
            onChange={(id: number) => setParams({ tab: 'rules', template: String(id) }, { replace: true })}
            options={(templates.data ?? []).map((x) => ({ value: x.id, label: templateName(x, i18n.language) }))}
            data-testid="rules-template"
          />
        </Flex>
        <Button type="primary" icon={<PlusOutlined />} disabled={!template} onClick={() => setEditing({ draft: { type: 'splice', definition: {}, message: '', message_en: '' } })} data-testid="rule-new">
          {t('structured.rule.new')}
        </Button>
      </Flex>
      <Table<ReportRule>
        rowKey="id"
        size="middle"
        loading={rules.isLoading}
        dataSource={rules.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('structured.rule.none')} /> }}
        data-testid="rules-table"
        columns={[
          { key: 'type', title: t('structured.rule.type'), width: 130, render: (_, r) => <Tag color="geekblue" bordered={false}>{t(`structured.ruleType.${r.type}`)}</Tag> },
          { key: 'what', title: t('structured.rule.what'), render: (_, r) => <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{describeRule(r, fields, i18n.language)}</Typography.Text> },
          { key: 'message', title: t('structured.rule.message'), width: 260, render: (_, r) => (!i18n.language.startsWith('zh') && r.message_en) || r.message || '—' },
          {
            key: 'actions',
            title: t('common.actions'),
            width: 140,
            render: (_, r) => (
              <Space size={4}>
                <Button size="small" type="link" onClick={() => setEditing({ id: r.id, draft: { type: r.type, definition: r.definition, message: r.message, message_en: r.message_en } })} data-testid={`rule-edit-${r.id}`}>
                  {t('common.edit')}
                </Button>
                <Popconfirm title={t('confirm.deleteTitle')} onConfirm={() => del.mutateAsync(r.id).catch(showError)}>
                  <Button size="small" type="link" danger>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        open={!!editing}
        title={editing?.id ? t('structured.rule.edit') : t('structured.rule.new')}
        width={640}
        onClose={() => setEditing(null)}
        destroyOnHidden
        data-testid="rule-drawer"
        footer={
          <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
            <Button type="primary" loading={saveM.isPending} onClick={submit} data-testid="rule-save">
              {t('common.save')}
            </Button>
          </Space>
        }
      >
        {editing && <RuleEditor fields={fields} value={editing.draft} onChange={(draft) => setEditing({ ...editing, draft })} />}
      </Drawer>
    </>
  );
}

export function SymbolsTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const list = useSymbols();
  const saveM = useSaveSymbols();
  const [rows, setRows] = useState<{ id?: number; text: string }[]>([]);
  useEffect(() => {
    if (list.data) setRows(list.data.map((s) => ({ id: s.id, text: s.text })));
  }, [list.data]);
  const move = (i: number, by: number) =>
    setRows((cur) => {
      const next = [...cur];
      const [x] = next.splice(i, 1);
      next.splice(i + by, 0, x!);
      return next;
    });
  return (
    <Flex vertical gap={12} style={{ maxWidth: 560 }} data-testid="symbols-tab">
      <Typography.Text type="secondary">{t('structured.symbolsHelp')}</Typography.Text>
      {rows.map((r, i) => (
        <Flex key={r.id ?? `new-${i}`} gap={8} align="center">
          <Input
            value={r.text}
            maxLength={10}
            style={{ width: 120, fontSize: 16 }}
            aria-label={t('structured.symbolN', { n: i + 1 })}
            onChange={(e) => setRows((cur) => cur.map((x, j) => (j === i ? { ...x, text: e.target.value } : x)))}
          />
          <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('structured.admin.fieldUp', { n: i + 1 })} />
          <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={i === rows.length - 1} onClick={() => move(i, 1)} aria-label={t('structured.admin.fieldDown', { n: i + 1 })} />
          <Button size="small" type="text" danger icon={<DeleteOutlined />} onClick={() => setRows((cur) => cur.filter((_, j) => j !== i))} aria-label={t('structured.admin.fieldRemove', { n: i + 1 })} />
        </Flex>
      ))}
      <Space>
        <Button icon={<PlusOutlined />} onClick={() => setRows((cur) => [...cur, { text: '' }])} data-testid="symbol-add">
          {t('structured.addSymbol')}
        </Button>
        <Button
          type="primary"
          loading={saveM.isPending}
          onClick={() => saveM.mutate(rows, { onSuccess: () => void message.success(t('common.saved')), onError: (e) => showError(e) })}
          data-testid="symbols-save"
        >
          {t('common.save')}
        </Button>
      </Space>
    </Flex>
  );
}
