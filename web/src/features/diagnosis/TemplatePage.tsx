// /setting/diagnosisTemplate — diagnosis templates and terms, a tab each
// (?tab=terms): an expert keeps their own, an administrator keeps the public
// ones. Templates are searched by name or category.
import { useMemo, useState } from 'react';
import { App, Button, Checkbox, Flex, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { Tabs } from '../../components/ui/Tabs';
import { FormDrawer } from '../../components/ui/FormDrawer';
import { useApiError } from '../../components/ui/useApiError';
import { useSearchParams } from '../../lib/searchParams';
import { formatDateTime } from '../../lib/format';
import { useDeleteTemplate, useSaveTemplate, useTemplates, type Template, type TemplateInput } from './api';
import { filterTemplates } from './TemplatePicker';
import { TermsTab } from './TermsTab';
import { useOwnership } from './ownership';
import { OwnedRowActions } from './OwnedRowActions';
import { RulesTab, StructTemplatesTab, SymbolsTab } from './structured/AdminTabs';

const TABS = ['templates', 'terms', 'structured', 'rules', 'symbols'] as const;

export default function TemplatePage() {
  const { t } = useTranslation();
  const { isAdmin } = useOwnership();
  const [params, setParams] = useSearchParams();
  const asked = TABS.find((x) => x === params.get('tab')) ?? 'templates';
  // Structured templates, report rules and symbols are the administrators'.
  const tab = !isAdmin && (asked === 'structured' || asked === 'rules' || asked === 'symbols') ? 'templates' : asked;
  const subtitle =
    tab === 'terms'
      ? isAdmin
        ? 'diagnosis.term.subtitleAdmin'
        : 'diagnosis.term.subtitle'
      : tab === 'templates'
        ? isAdmin
          ? 'diagnosis.template.subtitleAdmin'
          : 'diagnosis.template.subtitle'
        : `structured.subtitle.${tab}`;
  return (
    <PageContainer title={t('diagnosis.template.pageTitle')} subtitle={t(subtitle)}>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams(k === 'templates' ? {} : { tab: k }, { replace: true })}
        style={{ marginTop: -8 }}
        items={[
          { key: 'templates', label: t('diagnosis.template.tab'), children: <TemplatesTab /> },
          { key: 'terms', label: t('diagnosis.term.tab'), children: <TermsTab /> },
          ...(isAdmin
            ? [
                { key: 'structured', label: t('structured.tab.structured'), children: <StructTemplatesTab /> },
                { key: 'rules', label: t('structured.tab.rules'), children: <RulesTab /> },
                { key: 'symbols', label: t('structured.tab.symbols'), children: <SymbolsTab /> },
              ]
            : []),
        ]}
      />
    </PageContainer>
  );
}

function TemplatesTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const { isAdmin, mayEdit } = useOwnership();
  const list = useTemplates();
  const saveM = useSaveTemplate();
  const del = useDeleteTemplate();
  const [q, setQ] = useState('');
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const [form] = Form.useForm<TemplateInput>();
  const rows = useMemo(() => filterTemplates(list.data ?? [], q), [list.data, q]);

  const open = (x: Template | 'new') => {
    setEditing(x);
    form.setFieldsValue(x === 'new' ? { name: '', category: '', microscopic: '', opinion: '', gross_description: '', public: isAdmin } : x);
  };
  const submit = (v: TemplateInput) =>
    saveM.mutate(
      { id: editing && editing !== 'new' ? editing.id : undefined, body: { ...v, public: isAdmin ? !!v.public : false } },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          setEditing(null);
        },
        onError: (e) => showError(e, form),
      },
    );

  return (
    <>
      <Flex justify="space-between" gap={12} style={{ marginBottom: 12 }} wrap>
        <Input.Search allowClear placeholder={t('diagnosis.template.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ maxWidth: 320 }} />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="template-new">
          {t('diagnosis.template.new')}
        </Button>
      </Flex>
      <Table<Template>
        rowKey="id"
        size="middle"
        loading={list.isLoading}
        dataSource={rows}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t('diagnosis.template.none') }}
        columns={[
          {
            key: 'name',
            title: t('diagnosis.template.name'),
            width: 220,
            render: (_, x) => (
              <Space size={6}>
                <Typography.Text strong>{x.name}</Typography.Text>
                {x.public && <Tag color="blue" bordered={false}>{t('diagnosis.template.public')}</Tag>}
              </Space>
            ),
          },
          { key: 'category', dataIndex: 'category', title: t('diagnosis.template.category'), width: 140, render: (x: string) => x || '—' },
          { key: 'opinion', dataIndex: 'opinion', title: t('diagnosis.field.opinion'), ellipsis: true },
          { key: 'microscopic', dataIndex: 'microscopic', title: t('diagnosis.field.microscopic'), ellipsis: true },
          { key: 'updated_at', dataIndex: 'updated_at', title: t('diagnosis.template.updatedAt'), width: 170, render: (x: string) => formatDateTime(x) },
          {
            key: 'actions',
            title: t('common.actions'),
            width: 140,
            render: (_, x) => (
              <OwnedRowActions editable={mayEdit(x)} confirm={t('confirm.deleteTitle')} onEdit={() => open(x)} onDelete={() => del.mutateAsync(x.id)} />
            ),
          },
        ]}
      />
      <FormDrawer<TemplateInput>
        title={editing === 'new' ? t('diagnosis.template.new') : t('diagnosis.template.edit')}
        open={!!editing}
        form={form}
        saving={saveM.isPending}
        width={640}
        onClose={() => setEditing(null)}
        onFinish={submit}
        testId="template-form"
      >
        <Flex gap={12}>
          <Form.Item name="name" label={t('diagnosis.template.name')} rules={[{ required: true, whitespace: true, message: t('diagnosis.template.nameRequired') }]} style={{ flex: 2 }}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="category" label={t('diagnosis.template.category')} style={{ flex: 1 }}>
            <Input maxLength={50} />
          </Form.Item>
        </Flex>
        <Form.Item name="microscopic" label={t('diagnosis.field.microscopic')}>
          <Input.TextArea autoSize={{ minRows: 4, maxRows: 10 }} maxLength={5000} />
        </Form.Item>
        <Form.Item name="opinion" label={t('diagnosis.field.opinion')}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={5000} />
        </Form.Item>
        <Form.Item name="gross_description" label={t('diagnosis.field.gross')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
        </Form.Item>
        {isAdmin && (
          <Form.Item name="public" valuePropName="checked">
            <Checkbox>{t('diagnosis.template.publicHint')}</Checkbox>
          </Form.Item>
        )}
      </FormDrawer>
    </>
  );
}
