// The terms tab of /setting/diagnosisTemplate: short phrases by category that
// experts insert while writing; an expert keeps their own, an administrator
// the public ones.
import { useMemo, useState } from 'react';
import { App, AutoComplete, Button, Checkbox, Empty, Flex, Form, Input, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FormDrawer } from '../../components/ui/FormDrawer';
import { useApiError } from '../../components/ui/useApiError';
import { formatDateTime } from '../../lib/format';
import { useDeleteTerm, useSaveTerm, useTerms, type Term, type TermInput } from './api';
import { ALL_CATEGORIES, filterTerms, termCategories } from './terms';
import { useOwnership } from './ownership';
import { OwnedRowActions } from './OwnedRowActions';

export function TermsTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const { isAdmin, mayEdit } = useOwnership();
  const list = useTerms();
  const saveM = useSaveTerm();
  const del = useDeleteTerm();
  const [q, setQ] = useState('');
  const [category, setCategory] = useState(ALL_CATEGORIES);
  const [editing, setEditing] = useState<Term | 'new' | null>(null);
  const [form] = Form.useForm<TermInput>();
  const categories = useMemo(() => termCategories(list.data ?? []), [list.data]);
  const rows = useMemo(() => filterTerms(list.data ?? [], q, category), [list.data, q, category]);
  const label = (c: string) => c || t('diagnosis.term.uncategorized');

  const open = (x: Term | 'new') => {
    setEditing(x);
    const cat = category === ALL_CATEGORIES ? '' : category;
    form.setFieldsValue(x === 'new' ? { category: cat, text: '', sort_order: 0, public: isAdmin } : x);
  };
  const submit = (v: TermInput) =>
    saveM.mutate(
      { id: editing && editing !== 'new' ? editing.id : undefined, body: { ...v, sort_order: v.sort_order ?? 0, public: isAdmin ? !!v.public : false } },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          setEditing(null);
        },
        onError: (e) => showError(e, form),
      },
    );

  const empty = list.data?.length ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagnosis.term.noMatch')} />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagnosis.term.empty')}>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>
        {t('diagnosis.term.new')}
      </Button>
    </Empty>
  );

  return (
    <>
      <Flex justify="space-between" gap={12} style={{ marginBottom: 12 }} wrap>
        <Space wrap>
          <Select
            value={category}
            onChange={setCategory}
            style={{ width: 180 }}
            options={[{ value: ALL_CATEGORIES, label: t('diagnosis.term.allCategories') }, ...categories.map((c) => ({ value: c, label: label(c) }))]}
            aria-label={t('diagnosis.template.category')}
            data-testid="term-category-filter"
          />
          <Input.Search allowClear placeholder={t('diagnosis.term.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ width: 280 }} />
        </Space>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="term-new">
          {t('diagnosis.term.new')}
        </Button>
      </Flex>
      <Table<Term>
        rowKey="id"
        size="middle"
        loading={list.isLoading}
        dataSource={rows}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: list.isLoading ? ' ' : empty }}
        data-testid="term-table"
        columns={[
          { key: 'category', dataIndex: 'category', title: t('diagnosis.template.category'), width: 140, render: (c: string) => (c ? <Tag bordered={false}>{c}</Tag> : <Typography.Text type="secondary">—</Typography.Text>) },
          {
            key: 'text',
            title: t('diagnosis.term.text'),
            render: (_, x) => (
              <Space size={6}>
                <span>{x.text}</span>
                {x.public && <Tag color="blue" bordered={false}>{t('diagnosis.template.public')}</Tag>}
              </Space>
            ),
          },
          { key: 'sort_order', dataIndex: 'sort_order', title: t('diagnosis.term.sortOrder'), width: 90, align: 'right' },
          { key: 'updated_at', dataIndex: 'updated_at', title: t('diagnosis.template.updatedAt'), width: 170, render: (x: string) => formatDateTime(x) },
          {
            key: 'actions',
            title: t('common.actions'),
            width: 140,
            render: (_, x) => (
              <OwnedRowActions editable={mayEdit(x)} confirm={t('diagnosis.term.deleteConfirm')} onEdit={() => open(x)} onDelete={() => del.mutateAsync(x.id)} testId={`term-${x.id}`} />
            ),
          },
        ]}
      />
      <FormDrawer<TermInput>
        title={editing === 'new' ? t('diagnosis.term.new') : t('diagnosis.term.edit')}
        open={!!editing}
        form={form}
        saving={saveM.isPending}
        width={520}
        onClose={() => setEditing(null)}
        onFinish={submit}
        testId="term-form"
      >
        <Form.Item name="text" label={t('diagnosis.term.text')} rules={[{ required: true, whitespace: true, message: t('diagnosis.term.textRequired') }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={200} showCount placeholder={t('diagnosis.term.textPlaceholder')} />
        </Form.Item>
        <Flex gap={12}>
          <Form.Item name="category" label={t('diagnosis.template.category')} style={{ flex: 1 }} extra={t('diagnosis.term.categoryHint')}>
            <AutoComplete options={categories.filter(Boolean).map((c) => ({ value: c }))} filterOption={(input, o) => String(o?.value ?? '').includes(input)}>
              <Input maxLength={30} allowClear />
            </AutoComplete>
          </Form.Item>
          <Form.Item name="sort_order" label={t('diagnosis.term.sortOrder')} style={{ flex: 1 }} extra={t('diagnosis.term.sortHint')}>
            <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Flex>
        {isAdmin && (
          <Form.Item name="public" valuePropName="checked">
            <Checkbox>{t('diagnosis.term.publicHint')}</Checkbox>
          </Form.Item>
        )}
      </FormDrawer>
    </>
  );
}
