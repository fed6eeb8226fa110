// The workspace's "meeting" action: invite experts who may see the case,
// then present it in the slide viewer.
import { Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useState } from 'react';
import { meetingPath, startMeeting } from '../../entities/case/meeting';
import { useApiError } from '../../components/ui/useApiError';
import { useExpertChoices } from './api';

export function MeetingDialog({ caseId, slideId, open, onClose }: { caseId: number; slideId: number | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const showError = useApiError();
  const [form] = Form.useForm<{ invitee_ids: number[] }>();
  const [busy, setBusy] = useState(false);
  const experts = useExpertChoices(caseId, 'review', open);
  const submit = async (v: { invitee_ids: number[] }) => {
    setBusy(true);
    try {
      const m = await startMeeting(caseId, v.invitee_ids);
      onClose();
      const first = slideId ?? m.slides?.[0]?.id;
      if (first) navigate(meetingPath(m, first));
    } catch (e) {
      showError(e, form);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t('meeting.dialog.title')} okText={t('meeting.dialog.start')} cancelText={t('common.cancel')} confirmLoading={busy}
      onCancel={onClose} onOk={() => form.submit()} destroyOnHidden okButtonProps={{ id: 'meeting-start' }}>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="invitee_ids" label={t('meeting.dialog.invitees')} extra={t('meeting.dialog.hint')} rules={[{ required: true, message: t('meeting.dialog.required') }]}>
          <Select mode="multiple" data-testid="meeting-invitees" optionFilterProp="label" loading={experts.isLoading}
            options={(experts.data ?? []).map((e) => ({ value: e.id, label: e.name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
