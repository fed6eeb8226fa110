import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, type ButtonProps, Form, Input, InputNumber, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCase } from '../../entities/case/api';
import { useCaseStaff, useCenterExperts, useChargeItems, useReturnReasons, type Outcome } from './api';

export const REASON_MAX = 1000;

interface ReasonProps {
  open: boolean;
  title: string;
  description?: string;
  label: string;
  required?: boolean;
  /** Offer the configured return reasons as quick picks. */
  presets?: boolean;
  okText?: string;
  danger?: boolean;
  onCancel: () => void;
  onOk: (reason: string) => Promise<unknown>;
}

/** A reason dialog: typed text, optionally picked from the preset reasons; a required empty reason stays open. */
export function ReasonModal({ open, title, description, label, required = true, presets, okText, danger, onCancel, onOk }: ReasonProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const reasons = useReturnReasons(open && !!presets);
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  const submit = async () => {
    const { reason } = await form.validateFields();
    setBusy(true);
    try {
      await onOk((reason ?? '').trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={title} onCancel={onCancel} onOk={() => void submit()} okText={okText ?? t('common.ok')} cancelText={t('common.cancel')} confirmLoading={busy} okButtonProps={{ danger, 'data-testid': 'reason-ok' } as ButtonProps} destroyOnHidden width={520}>
      {description && <Typography.Paragraph type="secondary">{description}</Typography.Paragraph>}
      <Form form={form} layout="vertical" name="reason" onFinish={() => void submit()}>
        {presets && (reasons.data?.length ?? 0) > 0 && (
          <Form.Item label={t('case.reason.presets')}>
            <Space size={[6, 6]} wrap>
              {reasons.data!.map((r) => (
                <Tag.CheckableTag key={r} checked={false} onChange={() => form.setFieldsValue({ reason: r })} style={{ border: '1px solid #d9e2ec' }}>
                  {r}
                </Tag.CheckableTag>
              ))}
            </Space>
          </Form.Item>
        )}
        <Form.Item name="reason" label={label} rules={required ? [{ required: true, whitespace: true, message: t('validation.required', { field: label }) }] : []}>
          <Input.TextArea rows={4} maxLength={REASON_MAX} showCount autoFocus data-testid="reason-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface ExpertProps {
  open: boolean;
  title: string;
  centerId: number | null | undefined;
  /** The case's library: experts bound to it (its subspecialty) are listed first and marked. */
  libraryId?: number | null;
  /** Referral: the current expert is excluded and a reason is asked. */
  excludeId?: number | null;
  withReason?: boolean;
  note?: string;
  onCancel: () => void;
  onOk: (expertId: number, reason: string) => Promise<unknown>;
}

/** Pick an expert of the case's center (and a reason for a referral). */
export function ExpertModal({ open, title, centerId, libraryId, excludeId, withReason, note, onCancel, onOk }: ExpertProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ expert_id: number; reason: string }>();
  const [busy, setBusy] = useState(false);
  const experts = useCenterExperts(open ? centerId : null, libraryId);
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  // The server offers only experts who take new cases, those bound to the
  // case's library first. Away experts stay selectable (the allocator may
  // know better: an urgent case, a subspecialty only they read) but are
  // marked and listed last.
  const offered = (experts.data ?? []).filter((e) => e.id !== excludeId);
  const noSubspecialty = !!libraryId && experts.isSuccess && offered.length > 0 && !offered.some((e) => e.subspecialty);
  const options = [...offered.filter((e) => !e.away), ...offered.filter((e) => e.away)].map((e) => ({ value: e.id, label: e.name, expert: e }));
  const chosenId = Form.useWatch('expert_id', form);
  const chosen = offered.find((e) => e.id === chosenId);
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      await onOk(v.expert_id, (v.reason ?? '').trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={title} onCancel={onCancel} onOk={() => void submit()} okText={t('common.ok')} cancelText={t('common.cancel')} confirmLoading={busy} destroyOnHidden width={520} okButtonProps={{ 'data-testid': 'expert-ok' } as ButtonProps}>
      {note && <Alert type="info" showIcon message={note} style={{ marginBottom: 16 }} />}
      {!centerId && <Alert type="warning" showIcon message={t('case.expert.noCenter')} style={{ marginBottom: 16 }} />}
      {noSubspecialty && <Alert type="info" showIcon message={t('case.expert.noSubspecialty')} style={{ marginBottom: 16 }} data-testid="expert-no-subspecialty" />}
      <Form form={form} layout="vertical" name="expert">
        {/* A validator, not `required`: antd would put aria-required on the select's root, which has no role (axe: aria-allowed-attr). */}
        <Form.Item name="expert_id" label={t('case.field.expert')} rules={[{ validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error(t('case.expert.required')))) }]}>
          <Select
            showSearch
            optionFilterProp="label"
            loading={experts.isLoading}
            options={options}
            placeholder={t('case.expert.placeholder')}
            notFoundContent={experts.isLoading ? undefined : t('case.expert.none')}
            autoFocus
            data-testid="expert-select"
            optionRender={(o) => (
              <Space size={6}>
                <span>{o.data.label}</span>
                {o.data.expert.subspecialty && (
                  <Tag color="blue" bordered={false} style={{ marginInlineEnd: 0 }}>
                    {t('case.expert.subspecialtyTag')}
                  </Tag>
                )}
                {o.data.expert.away && <AwayTag until={o.data.expert.away_until} />}
              </Space>
            )}
          />
        </Form.Item>
        {chosen?.away && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="expert-away-warning"
            message={t('case.expert.awayWarning', { name: chosen.name })}
            description={[chosen.away_note, chosen.away_until && t('case.expert.awayUntil', { date: chosen.away_until })].filter(Boolean).join(' · ') || undefined}
          />
        )}
        {withReason && (
          <Form.Item name="reason" label={t('case.reason.referral')} rules={[{ required: true, whitespace: true, message: t('validation.required', { field: t('case.reason.referral') }) }]}>
            <Input.TextArea rows={3} maxLength={REASON_MAX} showCount />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

interface StaffProps {
  caseId: number | null;
  note?: string;
  onCancel: () => void;
  /** staffId 0 removes the staff member named. */
  onOk: (staffId: number) => Promise<unknown>;
}

/** Name the technician who supports the expert on a case, or remove the one named. */
export function StaffModal({ caseId, note, onCancel, onOk }: StaffProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ staff_id: number }>();
  const [busy, setBusy] = useState(false);
  const staff = useCaseStaff(caseId);
  const detail = useCase(caseId);
  const current = detail.data?.staff_id ?? null;
  useEffect(() => {
    if (current) form.setFieldsValue({ staff_id: current });
  }, [current, form]);
  const run = async (id: number) => {
    setBusy(true);
    try {
      await onOk(id);
    } finally {
      setBusy(false);
    }
  };
  const submit = async () => {
    const v = await form.validateFields();
    await run(v.staff_id);
  };
  const options = (staff.data ?? []).map((s) => ({ value: s.id, label: s.name }));
  return (
    <Modal
      open={caseId !== null}
      title={t('case.action.bindStaff')}
      onCancel={onCancel}
      destroyOnHidden
      width={480}
      footer={[
        current ? (
          <Button key="remove" danger disabled={busy} onClick={() => void run(0)} data-testid="staff-remove" style={{ float: 'left' }}>
            {t('case.staff.remove')}
          </Button>
        ) : null,
        <Button key="cancel" onClick={onCancel}>
          {t('common.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={busy} onClick={() => void submit()} data-testid="staff-ok">
          {t('common.ok')}
        </Button>,
      ]}
    >
      {note && <Alert type="info" showIcon message={note} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" name="staff">
        <Form.Item name="staff_id" label={t('case.field.staff')} rules={[{ required: true, message: t('case.staff.required') }]} extra={t('case.staff.help')}>
          <Select
            showSearch
            optionFilterProp="label"
            loading={staff.isLoading || detail.isLoading}
            options={options}
            placeholder={t('case.staff.placeholder')}
            notFoundContent={staff.isLoading ? undefined : t('case.staff.none')}
            autoFocus
            data-testid="staff-select"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Yuan with two decimals. */
export const yuan = (v: number) => `¥${v.toFixed(2)}`;

interface ChargeProps {
  open: boolean;
  title: string;
  okText?: string;
  onCancel: () => void;
  onOk: (items: { item_id: number; quantity: number }[]) => Promise<unknown>;
}

/** Choose charge items and quantities; the total is shown in yuan. */
export function ChargeModal({ open, title, okText, onCancel, onOk }: ChargeProps) {
  const { t } = useTranslation();
  const items = useChargeItems(open);
  const [qty, setQty] = useState<Record<number, number>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  useEffect(() => {
    if (open) {
      setQty({});
      setError('');
    }
  }, [open]);
  const rows = useMemo(() => items.data ?? [], [items.data]);
  const total = useMemo(() => rows.reduce((s, i) => s + (qty[i.id] ?? 0) * i.price, 0), [rows, qty]);
  const chosen = Object.entries(qty).filter(([, q]) => q > 0).map(([id, q]) => ({ item_id: Number(id), quantity: q }));
  const submit = async () => {
    if (!chosen.length) {
      setError(t('case.charge.needItem'));
      return;
    }
    setBusy(true);
    try {
      await onOk(chosen);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={title} onCancel={onCancel} onOk={() => void submit()} okText={okText ?? t('case.charge.confirm')} cancelText={t('common.cancel')} confirmLoading={busy} destroyOnHidden width={640} okButtonProps={{ 'data-testid': 'charge-ok' } as ButtonProps}>
      <Table
        size="small"
        rowKey="id"
        loading={items.isLoading}
        dataSource={rows}
        pagination={false}
        scroll={{ y: 360 }}
        locale={{ emptyText: t('case.charge.noItems') }}
        columns={[
          { key: 'name', dataIndex: 'name', title: t('case.charge.item') },
          { key: 'price', dataIndex: 'price', title: t('case.charge.price'), width: 120, align: 'right', render: (v: number, r) => `${yuan(v)}${r.unit ? ` / ${r.unit}` : ''}` },
          {
            key: 'qty',
            title: t('case.charge.quantity'),
            width: 120,
            render: (_: unknown, r) => (
              <InputNumber min={0} max={999} precision={0} value={qty[r.id] ?? 0} onChange={(v) => { setError(''); setQty((q) => ({ ...q, [r.id]: Number(v ?? 0) })); }} aria-label={`${r.name} ${t('case.charge.quantity')}`} style={{ width: 90 }} />
            ),
          },
          { key: 'sum', title: t('case.charge.subtotal'), width: 110, align: 'right', render: (_: unknown, r) => yuan((qty[r.id] ?? 0) * r.price) },
        ]}
      />
      <Space style={{ display: 'flex', justifyContent: 'space-between', marginTop: 12 }}>
        <Typography.Text type="danger">{error}</Typography.Text>
        <Typography.Text strong style={{ fontSize: 18 }} data-testid="charge-total">
          {t('case.charge.total')}：{yuan(total)}
        </Typography.Text>
      </Space>
    </Modal>
  );
}

/** The per-case outcome of a batch operation. */
export function OutcomeModal({ title, outcomes, names, onClose }: { title: string; outcomes: Outcome[] | null; names: (id: number) => string; onClose: () => void }) {
  const { t } = useTranslation();
  const ok = (outcomes ?? []).filter((o) => o.ok).length;
  const failed = (outcomes ?? []).length - ok;
  return (
    <Modal open={!!outcomes} title={title} onCancel={onClose} onOk={onClose} cancelButtonProps={{ style: { display: 'none' } }} okText={t('common.ok')} width={640} destroyOnHidden>
      <Alert type={failed ? (ok ? 'warning' : 'error') : 'success'} showIcon message={t('case.batch.summary', { ok, failed })} style={{ marginBottom: 12 }} />
      <Table
        size="small"
        rowKey="id"
        dataSource={outcomes ?? []}
        pagination={false}
        scroll={{ y: 360 }}
        columns={[
          { key: 'case', title: t('case.field.consultNo'), width: 200, render: (_: unknown, o) => <span className="tp-mono">{names(o.id)}</span> },
          { key: 'ok', title: t('case.batch.result'), width: 100, render: (_: unknown, o) => (o.ok ? <Tag icon={<CheckCircleFilled />} color="success">{t('case.batch.ok')}</Tag> : <Tag icon={<CloseCircleFilled />} color="error">{t('case.batch.failed')}</Tag>) },
          { key: 'message', dataIndex: 'message', title: t('case.batch.message'), render: (v?: string) => v || '—' },
        ]}
      />
    </Modal>
  );
}

/** Marks an expert who set themselves away, with their return day when given. */
export function AwayTag({ until }: { until?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color="orange" bordered={false} style={{ marginInlineEnd: 0, color: '#873800' }}>
      {until ? t('case.expert.awayTagUntil', { date: until }) : t('case.expert.awayTag')}
    </Tag>
  );
}
