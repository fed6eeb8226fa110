// Header actions of the workspace that pass the case on: favourite star,
// referral to another expert (reason required), handover to a colleague and
// its recall. Shown from the actions the server lists for the caller.
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Select, Space, Tag, Tooltip } from 'antd';
import { SwapOutlined, UndoOutlined, UserSwitchOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../components/ui/useApiError';
import { useCaseLog, type CaseDetail } from '../../entities/case/api';
import { useExpertChoices } from './api';
import { useHandovers, useTransferActions } from './expertApi';
import { CollectStar } from './CollectStar';
import { AdminCaseActions } from './AdminCaseActions';

type Kind = 'referral' | 'handover';

export function TransferActions({ d, me }: { d: CaseDetail; me: number }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const showError = useApiError();
  const [kind, setKind] = useState<Kind | null>(null);
  const [form] = Form.useForm<{ expert_id: number; text: string }>();
  const acts = useTransferActions(d.id);
  const experts = useExpertChoices(d.id, 'other', kind !== null);
  const handovers = useHandovers(d.id);
  const pending = handovers.data?.find((h) => h.status === 'pending');
  // A report the publisher sent back: its reason, until the expert signs again.
  const log = useCaseLog(d.id);
  const last = log.data?.filter((l) => l.action === 'publisher_return' || l.action === 'publish').at(-1);
  const returnedBy = last?.action === 'publisher_return' && d.status === 1 ? last : undefined;
  const can = (a: string) => (d.actions ?? []).includes(a);
  const isExpert = can('expert_referral') || can('handover') || can('handover_recall') || d.expert_id === me;

  const submit = async (v: { expert_id: number; text: string }) => {
    try {
      if (kind === 'referral') await acts.referral.mutateAsync({ expert_id: v.expert_id, reason: v.text.trim() });
      else await acts.handover.mutateAsync({ expert_id: v.expert_id, note: (v.text ?? '').trim() });
      void message.success(kind === 'referral' ? t('expertActions.done.referral') : t('expertActions.done.handover'));
      const left = kind === 'referral';
      setKind(null);
      if (left) navigate('/diagnosis/manage');
    } catch (e) {
      showError(e);
    }
  };

  const recall = () =>
    modal.confirm({
      title: t('expertActions.confirm.handoverRecall'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => acts.handoverRecall.mutateAsync().then(() => void message.success(t('expertActions.done.handoverRecall')), (err) => showError(err)),
    });

  return (
    <Space size={4} wrap>
      {isExpert && <CollectStar id={d.id} collected={!!d.is_collected} />}
      {pending && (
        <Tooltip title={pending.note || undefined}>
          <Tag color="gold" data-testid="handover-pending">
            {t('expertActions.handoverPending', { from: pending.from_name, to: pending.to_name })}
          </Tag>
        </Tooltip>
      )}
      {returnedBy && (
        <Tooltip title={returnedBy.detail}>
          <Tag color="red" style={{ maxWidth: 360, overflow: 'hidden', textOverflow: 'ellipsis', verticalAlign: 'middle' }} data-testid="publisher-returned">
            {t('expertActions.publisher.returnedBy', { name: returnedBy.user_name, reason: returnedBy.detail })}
          </Tag>
        </Tooltip>
      )}
      <AdminCaseActions d={d} />
      {can('handover_recall') && (
        <Button icon={<UndoOutlined />} onClick={recall} data-testid="action-handover-recall">
          {t('expertActions.handoverRecall')}
        </Button>
      )}
      {can('handover') && (
        <Button icon={<SwapOutlined />} onClick={() => setKind('handover')} data-testid="action-handover">
          {t('expertActions.handover')}
        </Button>
      )}
      {can('expert_referral') && (
        <Button icon={<UserSwitchOutlined />} onClick={() => setKind('referral')} data-testid="action-referral">
          {t('expertActions.referral')}
        </Button>
      )}
      <Modal
        open={kind !== null}
        title={kind === 'referral' ? t('expertActions.referral') : t('expertActions.handover')}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        confirmLoading={acts.referral.isPending || acts.handover.isPending}
        onCancel={() => setKind(null)}
        onOk={() => form.submit()}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'transfer-ok' } as Record<string, string>}
      >
        <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
          <Form.Item name="expert_id" label={t('expertActions.toExpert')} rules={[{ required: true, message: t('expertActions.rule.expert') }]}>
            <Select
              showSearch
              optionFilterProp="label"
              loading={experts.isLoading}
              options={(experts.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
              placeholder={t('expertActions.rule.expert')}
              notFoundContent={t('diagnosis.noExperts')}
              data-testid="transfer-expert"
            />
          </Form.Item>
          <Form.Item
            name="text"
            label={kind === 'referral' ? t('expertActions.referralReason') : t('expertActions.handoverNote')}
            extra={kind === 'handover' ? t('expertActions.handoverHint') : undefined}
            rules={kind === 'referral' ? [{ required: true, whitespace: true, message: t('diagnosis.rule.reason') }] : []}
          >
            <Input.TextArea rows={4} maxLength={500} showCount data-testid="transfer-text" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
