// The advice of a case in the expert's workspace: what was ordered, its state
// and results; the assigned expert orders more, changes or withdraws pending
// advice and records the marker results of executed special exams.
import { useState, type ReactNode } from 'react';
import { App, AutoComplete, Button, Card, Empty, Form, Input, Modal, Popconfirm, Radio, Select, Space, Table, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, ExperimentOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useApiError } from '../../components/ui/useApiError';
import type { CaseDetail } from '../../entities/case/api';
import { ADVICE_ITEMS, useAdviceActions, useCaseAdvice, type Advice, type AdviceInput, type AdviceItemInput, type AdviceKind, type AdviceResultsInput } from './adviceApi';
import { AdviceStatusTag, MarkerResultsTable } from './adviceParts';
import { AdviceResultsModal } from './AdviceResultsModal';
import { useDiagnosisSettings, useReagentOptions } from './settingsApi';

type BlockOption = { value: string; label: string };

/** The markers of a text (as typed: commas, enumeration commas or semicolons between them). */
const markerList = (v?: string) => (v ? v.split(/[,，、;；]+/).map((m) => m.trim()).filter(Boolean) : []);

/**
 * The fields of one advice item in a row: in the order form's list (prefix: the
 * row, at: its absolute path) or the edit form (prefix: none, labelled). A
 * special exam adds markers from the enabled, unexpired reagents (or types
 * others); a molecular pathology item gets the configured default remark.
 */
function AdviceItemFields({ prefix, at = prefix, kind, blocks, labelled, extra }: { prefix: (string | number)[]; at?: (string | number)[]; kind: AdviceKind; blocks: BlockOption[]; labelled?: boolean; extra?: ReactNode }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const settings = useDiagnosisSettings().data;
  const reagents = useReagentOptions(kind === 'special').data ?? [];
  const label = (key: string) => (labelled ? t(key) : undefined);
  const markerOptions = [...new Set(reagents.map((r) => r.name))].map((name) => {
    const r = reagents.find((x) => x.name === name)!;
    return { value: name, label: r.clone ? `${name} (${r.clone})` : name };
  });
  const itemChanged = (item: string) => {
    const remark = settings?.default_molecular_block_remark;
    if (item === 'molecular_pathology' && remark && !form.getFieldValue([...at, 'remark'])) form.setFieldValue([...at, 'remark'], remark);
  };
  const addMarker = (name: string) => {
    const markers = markerList(form.getFieldValue([...at, 'markers']) as string | undefined);
    if (!markers.some((m) => m.toLowerCase() === name.toLowerCase())) markers.push(name);
    form.setFields([{ name: [...at, 'markers'], value: markers.join(', '), errors: [] }]);
  };
  const remarks = (settings?.special_advice ?? []).map((r) => ({ value: r }));
  return (
    <Space align="start" style={{ display: 'flex' }} wrap>
      <Form.Item name={[...prefix, 'item']} label={label('advice.field.item')} rules={[{ required: true, message: t('advice.rule.item') }]}>
        <Select style={{ width: 150 }} placeholder={t('advice.field.item')} aria-label={t('advice.field.item')} autoFocus={labelled} options={ADVICE_ITEMS[kind].map((i) => ({ value: i, label: t(`advice.item.${i}`) }))} onChange={itemChanged} data-testid="advice-item" />
      </Form.Item>
      <Form.Item name={[...prefix, 'markers']} label={label('advice.field.markers')} rules={kind === 'special' ? [{ required: true, whitespace: true, message: t('advice.rule.markers') }] : []}>
        <Input style={{ width: 190 }} maxLength={500} aria-label={t('advice.field.markers')} placeholder={kind === 'special' ? t('advice.field.markersHint') : t('advice.field.markers')} data-testid="advice-markers" />
      </Form.Item>
      {kind === 'special' && (
        <Form.Item label={label('advice.pickReagent')}>
          <Select
            showSearch
            style={{ width: 170 }}
            value={null}
            options={markerOptions}
            optionFilterProp="label"
            placeholder={t('advice.pickReagent')}
            aria-label={t('advice.pickReagent')}
            notFoundContent={t('advice.noReagents')}
            onChange={addMarker}
            data-testid="advice-reagent"
          />
        </Form.Item>
      )}
      <Form.Item name={[...prefix, 'block']} label={label('advice.field.block')}>
        <Select style={{ width: 130 }} allowClear placeholder={t('advice.field.block')} aria-label={t('advice.field.block')} options={blocks} />
      </Form.Item>
      <Form.Item name={[...prefix, 'remark']} label={label('advice.field.remark')}>
        <AutoComplete style={{ width: 160 }} options={kind === 'special' ? remarks : []} aria-label={t('advice.field.remark')} placeholder={t('advice.field.remark')} maxLength={500} data-testid="advice-remark" />
      </Form.Item>
      {extra}
    </Space>
  );
}

const hasResults = (a: Advice) => a.kind === 'special' && (a.status === 'executed' || a.status === 'done');

export function AdvicePanel({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const advice = useCaseAdvice(d.id);
  const acts = useAdviceActions(d.id);
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<Advice | null>(null);
  const [recording, setRecording] = useState<Advice | null>(null);
  const [form] = Form.useForm<AdviceInput>();
  const kind = (Form.useWatch('kind', form) ?? 'special') as AdviceKind;
  const canOrder = (d.actions ?? []).includes('advice');
  const canCancel = (d.actions ?? []).includes('advice_cancel');
  const canUpdate = (d.actions ?? []).includes('advice_update');
  const canRecord = (d.actions ?? []).includes('advice_results');
  const blocks: BlockOption[] = (d.specimens ?? []).flatMap((s) => (s.blocks ?? []).map((b) => ({ value: b.name, label: `${b.name} · ${s.name}` })));
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

  const update = async (body: AdviceItemInput) => {
    if (!editing) return;
    try {
      await acts.update.mutateAsync({ adviceId: editing.id, body });
      setEditing(null);
      void message.success(t('advice.done.update'));
    } catch (e) {
      showError(e);
    }
  };

  const record = async (body: AdviceResultsInput) => {
    if (!recording) return;
    try {
      await acts.results.mutateAsync({ adviceId: recording.id, body });
      setRecording(null);
      void message.success(t('advice.done.results'));
    } catch (e) {
      showError(e);
    }
  };

  const expandable = rows.filter((a) => hasResults(a) && (a.marker_results?.length || canRecord)).map((a) => a.id);
  const resultsRow = (a: Advice) => (
    <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start', paddingInlineStart: 8 }}>
      <div style={{ flex: 1, minWidth: 0 }}>
        <Typography.Text strong style={{ display: 'block', marginBottom: 6 }}>
          {t('advice.results.title')}
          {a.results_at && (
            <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal', marginInlineStart: 8 }}>
              {t('advice.results.by', { name: a.results_by_name ?? '', at: formatDateTime(a.results_at) })}
            </Typography.Text>
          )}
        </Typography.Text>
        {a.marker_results?.length ? <MarkerResultsTable advice={a} /> : <Typography.Text type="secondary">{t('advice.results.none')}</Typography.Text>}
      </div>
      {canRecord && (
        <Button size="small" icon={<EditOutlined />} onClick={() => setRecording(a)} data-testid={`advice-results-edit-${a.id}`}>
          {a.marker_results?.length ? t('advice.results.edit') : t('advice.results.record')}
        </Button>
      )}
    </div>
  );

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
    ...((canCancel || canUpdate) && rows.some((a) => a.status === 'pending')
      ? [
          {
            key: 'op',
            title: '',
            width: 76,
            render: (_: unknown, a: Advice) =>
              a.status === 'pending' && (
                <Space size={0}>
                  {canUpdate && <Button type="text" size="small" icon={<EditOutlined />} aria-label={t('advice.edit')} title={t('advice.edit')} onClick={() => setEditing(a)} data-testid={`advice-edit-${a.id}`} />}
                  {canCancel && (
                    <Popconfirm title={t('advice.confirm.cancel')} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => acts.cancel.mutateAsync({ kind: a.kind, ids: [a.id] }).catch(showError)}>
                      <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('advice.cancel')} title={t('advice.cancel')} />
                    </Popconfirm>
                  )}
                </Space>
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
        <Table<Advice>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={rows}
          columns={columns}
          expandable={{ expandedRowKeys: expandable, showExpandColumn: false, rowExpandable: (a) => expandable.includes(a.id), expandedRowRender: resultsRow }}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('advice.empty')} />
      )}
      <Modal
        open={open}
        width={720}
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
                  <AdviceItemFields
                    key={f.key}
                    prefix={[f.name]}
                    at={['items', f.name]}
                    kind={kind}
                    blocks={blocks}
                    extra={fields.length > 1 && <MinusCircleOutlined style={{ marginTop: 9 }} onClick={() => remove(f.name)} aria-label={t('common.delete')} />}
                  />
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
      <Modal
        open={!!editing}
        width={720}
        title={editing && `${t('advice.edit')} · ${t(`advice.kind.${editing.kind}`)}`}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={acts.update.isPending}
        onCancel={() => setEditing(null)}
        okButtonProps={{ htmlType: 'submit', form: 'advice-edit', 'data-testid': 'advice-edit-ok' } as Record<string, string>}
        destroyOnHidden
      >
        {editing && (
          <Form
            id="advice-edit"
            layout="vertical"
            preserve={false}
            onFinish={update}
            initialValues={{ item: editing.item, markers: editing.markers, block: editing.block || undefined, remark: editing.remark }}
          >
            <AdviceItemFields prefix={[]} kind={editing.kind} blocks={blocks} labelled />
          </Form>
        )}
      </Modal>
      <AdviceResultsModal advice={recording} busy={acts.results.isPending} onCancel={() => setRecording(null)} onOk={(body) => void record(body)} />
    </Card>
  );
}
