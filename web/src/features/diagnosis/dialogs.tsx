// Dialogs of the workspace actions that need input: reviewer, release mode,
// reasons, delay days, invitees, review notes.
import { useEffect } from 'react';
import { Alert, Button, Form, Input, InputNumber, Modal, Radio, Select, Space, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Person } from './api';
import { useDiagnosisSettings } from './settingsApi';

export type DialogKind = 'toreview' | 'publish' | 'return' | 'delay' | 'invite' | 'approve' | 'reviewreturn' | 'amend';

export interface DialogValues {
  reviewer_id?: number;
  delayed?: boolean;
  reason?: string;
  days?: number;
  invitee_ids?: number[];
  message?: string;
  note?: string;
  timeout_reason?: string;
}

interface Props {
  kind: DialogKind | null;
  experts: Person[];
  busy: boolean;
  hesitationHours?: number;
  /** The case is past its deadline and the settings ask for a reason when signing. */
  late?: boolean;
  /** The dialog acts on the supplementary report (its own titles and wording). */
  supplement?: boolean;
  onCancel: () => void;
  onOk: (kind: DialogKind, v: DialogValues) => void;
}

const TITLES: Record<DialogKind, string> = {
  toreview: 'diagnosis.action.toreview',
  publish: 'diagnosis.action.publish',
  return: 'diagnosis.action.return',
  delay: 'diagnosis.action.delay',
  invite: 'diagnosis.action.invite',
  approve: 'diagnosis.action.approve',
  reviewreturn: 'diagnosis.action.reviewreturn',
  amend: 'diagnosis.action.amend',
};

const SUPPLEMENT_TITLES: Partial<Record<DialogKind, string>> = {
  toreview: 'diagnosis.supplement.dialog.toreview',
  approve: 'diagnosis.supplement.dialog.approve',
  reviewreturn: 'diagnosis.supplement.dialog.reviewreturn',
};

/** The reasons the diagnosis settings offer for a field: a click fills the field in. */
function ReasonChoices({ form, field, reasons }: { form: FormInstance<DialogValues>; field: keyof DialogValues; reasons?: string[] | null }) {
  const { t } = useTranslation();
  if (!reasons?.length) return null;
  return (
    <div style={{ marginTop: -12, marginBottom: 16 }} data-testid={`reason-choices-${field}`}>
      <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineEnd: 8 }}>
        {t('diagnosis.commonReasons')}
      </Typography.Text>
      <Space size={[4, 4]} wrap>
        {reasons.map((r) => (
          <Button key={r} size="small" onClick={() => void form.setFields([{ name: field, value: r, errors: [] }])}>
            {r}
          </Button>
        ))}
      </Space>
    </div>
  );
}

export function ActionDialog({ kind, experts, busy, supplement, late, onCancel, onOk }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DialogValues>();
  useEffect(() => {
    if (kind) form.resetFields();
  }, [kind, form]);
  const reasons = useDiagnosisSettings(!!kind).data;
  const others = experts.map((e) => ({ value: e.id, label: e.name }));
  const required = (msg: string) => [{ required: true, whitespace: true, message: t(msg) }];
  return (
    <Modal
      open={!!kind}
      title={kind ? t((supplement && SUPPLEMENT_TITLES[kind]) || TITLES[kind]) : ''}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onCancel={onCancel}
      onOk={() => form.submit()}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'dialog-ok' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" onFinish={(v) => kind && onOk(kind, v)} initialValues={{ delayed: false, days: 3 }} preserve={false}>
        {kind === 'toreview' && (
          <Form.Item name="reviewer_id" label={t('diagnosis.field.reviewer')} rules={[{ required: true, message: t('diagnosis.rule.reviewer') }]}>
            <Select showSearch optionFilterProp="label" options={others} placeholder={t('diagnosis.rule.reviewer')} notFoundContent={t('diagnosis.noExperts')} />
          </Form.Item>
        )}
        {kind === 'publish' && (
          <>
            <Form.Item name="delayed" label={t('diagnosis.field.release')}>
              <Radio.Group>
                <Radio value={false} style={{ display: 'block', marginBottom: 8 }} data-testid="release-now">
                  {t('diagnosis.release.now')}
                </Radio>
                <Radio value={true} style={{ display: 'block' }} data-testid="release-delayed">
                  {t('diagnosis.release.delayed')}
                </Radio>
              </Radio.Group>
            </Form.Item>
            <Alert type="info" showIcon message={t('diagnosis.release.hint')} />
            {late && (
              <Form.Item name="timeout_reason" label={t('diagnosis.field.timeoutReason')} rules={required('diagnosis.rule.timeoutReason')} style={{ marginTop: 16 }}>
                <Input.TextArea rows={3} maxLength={500} showCount data-testid="timeout-reason" />
              </Form.Item>
            )}
            {late && <ReasonChoices form={form} field="timeout_reason" reasons={reasons?.timeout_reason} />}
          </>
        )}
        {kind === 'return' && (
          <>
            <Form.Item name="reason" label={t('diagnosis.field.returnReason')} rules={required('diagnosis.rule.reason')}>
              <Input.TextArea rows={4} maxLength={500} showCount autoFocus />
            </Form.Item>
            <ReasonChoices form={form} field="reason" reasons={reasons?.specimen_reject} />
          </>
        )}
        {kind === 'amend' && (
          <>
            <Alert type="info" showIcon message={t('diagnosis.amendHint')} style={{ marginBottom: 16 }} />
            <Form.Item name="reason" label={t('diagnosis.field.amendReason')} rules={required('diagnosis.rule.reason')}>
              <Input.TextArea rows={4} maxLength={2000} showCount autoFocus data-testid="amend-reason" />
            </Form.Item>
          </>
        )}
        {kind === 'delay' && (
          <>
            <Form.Item name="days" label={t('diagnosis.field.days')} rules={[{ required: true, type: 'integer', min: 1, max: 30, message: t('diagnosis.rule.days') }]}>
              <InputNumber min={1} max={30} precision={0} style={{ width: 160 }} addonAfter={t('diagnosis.days')} />
            </Form.Item>
            <Form.Item name="reason" label={t('diagnosis.field.delayReason')} rules={required('diagnosis.rule.reason')}>
              <Input.TextArea rows={3} maxLength={500} showCount data-testid="delay-reason" />
            </Form.Item>
            <ReasonChoices form={form} field="reason" reasons={reasons?.delay_report} />
          </>
        )}
        {kind === 'invite' && (
          <>
            <Form.Item name="invitee_ids" label={t('diagnosis.field.invitees')} rules={[{ required: true, type: 'array', min: 1, message: t('diagnosis.rule.invitees') }]}>
              <Select mode="multiple" showSearch optionFilterProp="label" options={others} notFoundContent={t('diagnosis.noExperts')} />
            </Form.Item>
            <Form.Item name="message" label={t('diagnosis.field.inviteMessage')} rules={required('diagnosis.rule.message')}>
              <Input.TextArea rows={4} maxLength={500} showCount />
            </Form.Item>
          </>
        )}
        {(kind === 'approve' || kind === 'reviewreturn') && (
          <>
            {kind === 'reviewreturn' && (
              <Typography.Paragraph type="secondary">{t(supplement ? 'diagnosis.supplement.rejectHint' : 'diagnosis.review.returnHint')}</Typography.Paragraph>
            )}
            <Form.Item
              name="note"
              label={t(supplement && kind === 'reviewreturn' ? 'diagnosis.supplement.rejectReason' : 'diagnosis.field.reviewNote')}
              rules={kind === 'reviewreturn' ? required(supplement ? 'diagnosis.rule.reason' : 'diagnosis.rule.note') : []}
            >
              <Input.TextArea rows={4} maxLength={500} showCount autoFocus />
            </Form.Item>
            {kind === 'reviewreturn' && !supplement && <ReasonChoices form={form} field="note" reasons={reasons?.first_audit_error_reason} />}
          </>
        )}
      </Form>
    </Modal>
  );
}
