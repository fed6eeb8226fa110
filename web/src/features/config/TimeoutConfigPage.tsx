import { useEffect, useState } from 'react';
import { App, Button, Col, Form, Input, InputNumber, Row, Space, Switch, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { FormDrawer } from '../../components/ui/FormDrawer';
import { useApiError } from '../../components/ui/useApiError';
import { useConfirmDelete } from '../../components/ui/useConfirm';
import { formatDateTime } from '../../lib/format';
import { fetchTimeouts, timeoutKeys, useDeleteTimeout, useSaveTimeout, type TimeoutConfig, type TimeoutInput } from './api';

/** /setting/timeoutConfig: how long an expert has for a case, and when it counts as soon timing out. */
export default function TimeoutConfigPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<TimeoutConfig | 'new' | null>(null);
  const del = useDeleteTimeout();
  const confirmDelete = useConfirmDelete();
  const columns: ListColumn<TimeoutConfig>[] = [
    { key: 'id', title: t('timeout.table.id'), width: 80, sortable: true },
    { key: 'name', title: t('timeout.table.name'), width: 200, sortable: true, filterable: true, render: (v: string, c) => (
      <Space size={4}>{v}{c.is_default === 1 && <Tag color="blue" bordered={false}>{t('timeout.default')}</Tag>}</Space>
    ) },
    { key: 'hours', title: t('timeout.table.hours'), width: 130, sortable: true, filterable: true, align: 'right', render: (h: number) => t('library.hours', { count: h }) },
    { key: 'remind_hours', title: t('timeout.table.remindHours'), width: 150, sortable: true, filterable: true, align: 'right', render: (h: number) => t('library.hours', { count: h }) },
    { key: 'expedite', title: t('timeout.table.expedite'), width: 120, sortable: true, filterable: true, render: (e: number) => (e === 1 ? <Tag color="red" bordered={false}>{t('timeout.urgent')}</Tag> : <Tag bordered={false}>{t('timeout.normal')}</Tag>) },
    { key: 'updated_at', title: t('timeout.table.updatedAt'), width: 180, sortable: true, render: formatDateTime },
    {
      key: 'actions', title: t('common.actions'), width: 150, fixed: 'right', ellipsis: false,
      render: (_: unknown, c) => (
        <Space size={0} data-testid={`timeout-actions-${c.id}`}>
          <Button type="link" size="small" onClick={() => setEditing(c)}>{t('common.edit')}</Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => del.mutateAsync(c.id))}>{t('common.delete')}</Button>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer title={t('timeout.title')} subtitle={t('timeout.subtitle')}>
      <DataList<TimeoutConfig>
        tableId="config.timeout"
        queryKey={timeoutKeys.all}
        fetchList={fetchTimeouts}
        columns={columns}
        defaultSort={{ id: 'asc' }}
        searchPlaceholder={t('timeout.searchPlaceholder')}
        toolbar={<Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="timeout-create">{t('timeout.create')}</Button>}
        emptyText={t('timeout.empty')}
      />
      <TimeoutFormDrawer config={editing === 'new' ? null : editing} open={editing !== null} onClose={() => setEditing(null)} />
    </PageContainer>
  );
}

function TimeoutFormDrawer({ config, open, onClose }: { config: TimeoutConfig | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TimeoutInput>();
  const save = useSaveTimeout(config?.id ?? null);
  const showError = useApiError();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(config ?? { hours: 72, remind_hours: 24, expedite: 0, is_default: 0 });
  }, [open, config, form]);

  const finish = (v: TimeoutInput) =>
    save.mutate(v, {
      onSuccess: () => {
        void message.success(t('common.saved'));
        onClose();
      },
      onError: (e) => showError(e, form),
    });
  const flag = { getValueProps: (v?: number) => ({ checked: v === 1 }), normalize: (c: boolean) => (c ? 1 : 0) };

  return (
    <FormDrawer title={t(config ? 'timeout.edit' : 'timeout.create')} open={open} form={form} saving={save.isPending} onClose={onClose} onFinish={finish} testId="timeout-drawer" width={480}>
      <Form.Item name="name" label={t('timeout.table.name')} rules={[{ required: true, message: t('validation.required', { field: t('timeout.table.name') }) }]}>
        <Input autoFocus maxLength={50} />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="hours" label={t('timeout.table.hours')} rules={[{ required: true, message: t('validation.required', { field: t('timeout.table.hours') }) }]}>
            <InputNumber min={1} max={720} precision={0} style={{ width: '100%' }} addonAfter={t('library.hourUnit')} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="remind_hours" label={t('timeout.table.remindHours')} extra={t('timeout.remindHint')}>
            <InputNumber min={0} max={720} precision={0} style={{ width: '100%' }} addonAfter={t('library.hourUnit')} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="expedite" label={t('timeout.forUrgent')} {...flag}>
            <Switch />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="is_default" label={t('timeout.isDefault')} extra={t('timeout.defaultHint')} {...flag}>
            <Switch />
          </Form.Item>
        </Col>
      </Row>
    </FormDrawer>
  );
}
