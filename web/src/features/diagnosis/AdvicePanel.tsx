// The advice of a case in the expert's workspace: what was ordered, its state
// and results; the assigned expert orders more or withdraws pending advice.
import { useState } from 'react';
import { App, Button, Card, Empty, Form, Input, Modal, Popconfirm, Radio, Select, Space, Table, Typography } from 'antd';
import { DeleteOutlined, ExperimentOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useApiError } from '../../components/ui/useApiError';
import type { CaseDetail } from './api';
import { ADVICE_ITEMS, useAdviceActions, useCaseAdvice, type Advice, type AdviceInput, type AdviceKind } from './adviceApi';
import { AdviceStatusTag } from './adviceParts';

export function AdvicePanel({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const advice = useCaseAdvice(d.id);
  const acts = useAdviceActions(d.id);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<AdviceInput>();
  const kind = (Form.useWatch('kind', form) ?? 'special') as AdviceKind;
  const canOrder = (d.actions ?? []).includes('advice');
  const canCancel = (d.actions ?? []).includes('advice_cancel');
  const blocks = (d.specimens ?? []).flatMap((s) => (s.blocks ?? []).map((b) => ({ value: b.name, label: `${b.name} · ${s.name}` })));
  const rows = advice.data ?? [];
  if (!canOrder && rows.length === 0) return null;

  const submit = async (v: AdviceInput) => {
    try {
      await acts.order.mutateAsync(v);
      setOpen(false);
      void message.success(t('advice.done.order'));
    } catch (e) {
      showError(e);
    }
  };

  const columns = [
    { key: 'item', title: t('advice.field.item'), width: 130, render: (_: unknown, a: Advice) => t(`advice.item.${a.item}`) },
    { key: 'markers', title: t('advice.field.markers'), render: (_: unknown, a: Advice) => [a.markers, a.block && `(${a.block})`, a.remark].filter(Boolean).join(' ') || '—' },
    { key: 'status', title: t('case.field.status'), width: 90, render: (_: unknown, a: Advice) => <AdviceStatusTag status={a.status} /> },
    {
      key: 'result',
      title: t('advice.field.result'),
      render: (_: unknown, a: Advice) =>
        a.result ? (
          <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>
            {a.result}
            <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
              {a.done_by_name} {formatDateTime(a.done_at)}
            </Typography.Text>
          </Typography.Text>
        ) : a.third_name ? (
          <Typography.Text type="secondary">{t('advice.withThird', { name: a.third_name })}</Typography.Text>
        ) : (
          '—'
        ),
    },
    ...(canCancel
      ? [
          {
            key: 'op',
            title: '',
            width: 44,
            render: (_: unknown, a: Advice) =>
              a.status === 'pending' && (
                <Popconfirm title={t('advice.confirm.cancel')} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => acts.cancel.mutateAsync([a.id]).catch(showError)}>
                  <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('advice.cancel')} />
                </Popconfirm>
              ),
          },
        ]
      : []),
  ];

  return (
    <Card
      size="small"
      style={{ marginTop: 12 }}
      title={
        <Space>
          <ExperimentOutlined />
          {t('advice.title')}
        </Space>
      }
      extra={
        canOrder && (
          <Button size="small" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="advice-order">
            {t('advice.order')}
          </Button>
        )
      }
      data-testid="advice-panel"
    >
      {rows.length ? (
        <Table<Advice> size="small" rowKey="id" pagination={false} dataSource={rows} columns={columns} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('advice.empty')} />
      )}
      <Modal
        open={open}
        width={680}
        title={t('advice.order')}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        confirmLoading={acts.order.isPending}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false} onFinish={submit} initialValues={{ kind: 'special', items: [{}] }}>
          <Form.Item name="kind" label={t('advice.field.kind')}>
            <Radio.Group optionType="button" options={(['special', 'technical'] as const).map((k) => ({ value: k, label: t(`advice.kind.${k}`) }))} onChange={() => form.setFieldValue('items', [{}])} />
          </Form.Item>
          <Form.List name="items">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="start" style={{ display: 'flex' }} wrap>
                    <Form.Item name={[f.name, 'item']} rules={[{ required: true, message: t('advice.rule.item') }]}>
                      <Select style={{ width: 150 }} placeholder={t('advice.field.item')} options={ADVICE_ITEMS[kind].map((i) => ({ value: i, label: t(`advice.item.${i}`) }))} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'markers']} rules={kind === 'special' ? [{ required: true, whitespace: true, message: t('advice.rule.markers') }] : []}>
                      <Input style={{ width: 190 }} maxLength={500} placeholder={kind === 'special' ? t('advice.field.markersHint') : t('advice.field.markers')} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'block']}>
                      <Select style={{ width: 130 }} allowClear placeholder={t('advice.field.block')} options={blocks} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'remark']}>
                      <Input style={{ width: 120 }} maxLength={500} placeholder={t('advice.field.remark')} />
                    </Form.Item>
                    {fields.length > 1 && <MinusCircleOutlined style={{ marginTop: 9 }} onClick={() => remove(f.name)} aria-label={t('common.delete')} />}
                  </Space>
                ))}
                {fields.length < 20 && (
                  <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({})}>
                    {t('advice.addItem')}
                  </Button>
                )}
              </>
            )}
          </Form.List>
        </Form>
      </Modal>
    </Card>
  );
}
