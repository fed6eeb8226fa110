import { useEffect, useState } from 'react';
import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../components/ui/useApiError';
import { useConfig } from '../../lib/appData';
import { SlidePicker } from '../../entities/case/SlidePicker';
import { defaultFixative, useFormOptions } from '../../entities/case/api';
import { useArrive, useAssign, useCenterExperts, usePrefill, useRecall, useReturn, type Appointment } from './api';

/** Asks a reason, then returns (allocator) or recalls (site) an appointment. */
export function ReasonDialog({ target, kind, onClose }: { target: Appointment | null; kind: 'return' | 'recall'; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [form] = Form.useForm<{ reason: string }>();
  const ret = useReturn();
  const rec = useRecall();
  const m = kind === 'return' ? ret : rec;
  const checked = useConfig().data?.rollback_need_check !== false;
  useEffect(() => form.resetFields(), [target, form]);
  const ok = async () => {
    const { reason } = await form.validateFields();
    m.mutate(
      { id: target!.id, reason },
      {
        onSuccess: (a) => {
          // Without the center's check (rollback_need_check off) the withdrawal is agreed at once.
          void message.success(t(kind === 'recall' && a?.phase === 'recalled' ? 'frozen.done.recalled' : `frozen.done.${kind}`));
          onClose();
        },
        onError: (e) => showError(e, form),
      },
    );
  };
  return (
    <Modal open={!!target} title={t(`frozen.action.${kind}`)} onCancel={onClose} onOk={() => void ok()} confirmLoading={m.isPending} okText={t('common.ok')} destroyOnHidden>
      {kind === 'recall' && <Typography.Paragraph style={{ color: '#595959' }}>{t(checked ? 'frozen.recallConfirm' : 'frozen.recallConfirmAtOnce')}</Typography.Paragraph>}
      <Form form={form} layout="vertical">
        <Form.Item name="reason" label={t('frozen.field.reason')} rules={kind === 'return' ? [{ required: true, whitespace: true, message: t('validation.required', { field: t('frozen.field.reason') }) }] : []}>
          <Input.TextArea rows={3} maxLength={500} autoFocus data-testid="frozen-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The allocator gives a frozen case to an expert of the center, or to the next on duty. */
export function AssignDialog({ target, onClose }: { target: Appointment | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const experts = useCenterExperts(target?.center_id ?? null);
  const [expert, setExpert] = useState<number | undefined>();
  const assign = useAssign();
  useEffect(() => setExpert(undefined), [target]);
  return (
    <Modal
      open={!!target}
      title={t('frozen.action.assign')}
      onCancel={onClose}
      okText={t('common.ok')}
      confirmLoading={assign.isPending}
      onOk={() =>
        assign.mutate(
          { id: target!.id, expertId: expert },
          {
            onSuccess: () => {
              void message.success(t('frozen.done.assign'));
              onClose();
            },
            onError: (e) => showError(e),
          },
        )
      }
      destroyOnHidden
    >
      <Typography.Paragraph style={{ color: '#595959' }}>{t('frozen.assignHint')}</Typography.Paragraph>
      <Select
        allowClear
        style={{ width: '100%' }}
        placeholder={t('frozen.onDutyAuto')}
        value={expert}
        onChange={setExpert}
        options={(experts.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
        data-testid="frozen-assign-expert"
        aria-label={t('frozen.field.expert')}
      />
    </Modal>
  );
}

/** The tissue is ready: the site registers the frozen case (prefilled), picks its slides and submits at once. */
export function ArriveDialog({ target, onClose }: { target: Appointment | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const prefill = usePrefill(target?.id ?? null);
  const arrive = useArrive();
  // The frozen library is not cytology: a specimen left without a fixative gets the center's routine default.
  const fixative = defaultFixative(useFormOptions(target?.center_id).data, 'frozen');
  const specimen = prefill.data?.specimens?.[0];
  const [form] = Form.useForm<{ pathology_number: string; original_pathology_number: string; fixative?: string; slide_ids: number[] }>();
  useEffect(() => {
    if (prefill.data) form.setFieldsValue({ pathology_number: prefill.data.pathology_number, original_pathology_number: prefill.data.original_pathology_number, fixative: specimen?.fixative, slide_ids: [] });
  }, [prefill.data, specimen, form]);
  const ok = async () => {
    const { fixative: typed, ...v } = await form.validateFields();
    const specimens = specimen ? [{ ...specimen, fixative: typed?.trim() ?? '' }, ...prefill.data!.specimens!.slice(1)] : prefill.data!.specimens;
    arrive.mutate(
      { id: target!.id, input: { ...prefill.data!, ...v, specimens } },
      {
        onSuccess: (a) => {
          void message.success(a.expert_name ? t('frozen.done.arriveTo', { name: a.expert_name }) : t('frozen.done.arriveUnassigned'));
          onClose();
        },
        onError: (e) => showError(e, form),
      },
    );
  };
  return (
    <Modal open={!!target} width={760} title={t('frozen.action.arrive')} onCancel={onClose} onOk={() => void ok()} okText={t('frozen.submitNow')} confirmLoading={arrive.isPending} destroyOnHidden>
      {target && (
        <Typography.Paragraph style={{ color: '#595959' }}>
          {t('frozen.arriveHint', { patient: target.patient_name, site: target.specimen_site })}
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical">
        <Form.Item name="pathology_number" label={t('case.field.pathologyNumber')} rules={[{ required: true, message: t('validation.required', { field: t('case.field.pathologyNumber') }) }]}>
          <Input maxLength={40} data-testid="frozen-pathology-number" />
        </Form.Item>
        <Form.Item name="original_pathology_number" label={t('frozen.field.originalNumber')} rules={[{ required: true, message: t('validation.required', { field: t('frozen.field.originalNumber') }) }]}>
          <Input maxLength={40} />
        </Form.Item>
        {specimen && (
          <Form.Item name="fixative" label={t('frozen.field.fixative', { specimen: specimen.name })}>
            <Input maxLength={50} placeholder={fixative ? t('case.specimen.fixativeDefault', { value: fixative }) : t('case.specimen.fixativeExample')} data-testid="frozen-fixative" />
          </Form.Item>
        )}
        <Form.Item name="slide_ids" label={t('frozen.field.slides')}>
          <SlidePicker caseId={null} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
