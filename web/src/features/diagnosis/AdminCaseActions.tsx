// The counter-audit in the workspace header: the administrator asks the
// expert to reconsider a published report and, during the counter-audit,
// records whether the first report stands (/admin/change_diagnosis_first_result);
// the expert accepts (the case reopens for a new version) or rejects it with
// a reason.
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Radio, Tag, Tooltip } from 'antd';
import { AuditOutlined, CheckOutlined, CloseOutlined, FileSearchOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { useApiError } from '../../components/ui/useApiError';
import { caseKeys, useCaseLog, type CaseDetail } from '../../entities/case/api';
import { diagKeys, useVersions } from './api';
import { CounterAudit } from '../../entities/case/codes';

type Kind = 'counter_audit' | 'first_result' | 'reject';
interface Values {
  reason?: string;
  result?: 'consistent' | 'minor_difference' | 'major_difference';
}

export function AdminCaseActions({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const showError = useApiError();
  const qc = useQueryClient();
  const [kind, setKind] = useState<Kind | null>(null);
  const [form] = Form.useForm<Values>();
  const result = Form.useWatch('result', form);
  const path = { params: { path: { id: d.id } } };
  const run = useMutation({
    mutationFn: async (v: Values) =>
      kind === 'counter_audit'
        ? unwrap(await api.POST('/api/admin/consultation/{id}/counter_audit', { ...path, body: { reason: v.reason?.trim() } }))
        : kind === 'reject'
          ? unwrap(await api.POST('/api/diagnosis/{id}/counter_audit/reject', { ...path, body: { reason: v.reason?.trim() } }))
          : unwrap(await api.POST('/api/admin/change_diagnosis_first_result', { body: { consult_id: d.id, result: v.result, reason: v.reason?.trim() } })),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: diagKeys.all }), qc.invalidateQueries({ queryKey: caseKeys.all })]),
  });
  const confirm = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/diagnosis/{id}/counter_audit/confirm', path)),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: diagKeys.all }), qc.invalidateQueries({ queryKey: caseKeys.all })]),
  });
  const acts = d.actions ?? [];
  const log = useCaseLog(d.id);
  const versions = useVersions(d.id);
  const verdict = versions.data?.find((v) => v.first_result);
  const request = d.manage_confirm === CounterAudit.Asked ? log.data?.filter((l) => l.action === 'counter_audit').at(-1) : undefined;
  const DONE: Record<Kind, string> = {
    counter_audit: 'expertActions.admin.counterAuditDone',
    first_result: 'expertActions.admin.firstResultDone',
    reject: 'expertActions.admin.rejectDone',
  };
  const submit = (v: Values) =>
    run.mutateAsync(v).then(() => {
      if (kind) void message.success(t(DONE[kind]));
      setKind(null);
    }, (e) => showError(e));
  const accept = () =>
    modal.confirm({
      title: t('expertActions.admin.acceptConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => confirm.mutateAsync().then(() => void message.success(t('expertActions.admin.acceptDone')), (e) => showError(e)),
    });
  const reasonRequired = kind === 'counter_audit' || kind === 'reject' || (result !== undefined && result !== 'consistent');
  const TITLES: Record<Kind, string> = {
    counter_audit: 'expertActions.admin.counterAudit',
    first_result: 'expertActions.admin.firstResult',
    reject: 'expertActions.admin.reject',
  };
  return (
    <>
      {request && (
        <Tooltip title={request.detail}>
          <Tag color="volcano" style={{ maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', verticalAlign: 'middle' }} data-testid="counter-audit-request">
            {t('expertActions.admin.requested', { name: request.user_name, reason: request.detail })}
          </Tag>
        </Tooltip>
      )}
      {verdict && (
        <Tooltip title={verdict.first_result_reason || undefined}>
          <Tag color={verdict.first_result === 'consistent' ? 'green' : verdict.first_result === 'minor_difference' ? 'gold' : 'red'} data-testid="first-result">
            {t('expertActions.admin.firstResultTag', { result: t(`expertActions.admin.result.${verdict.first_result}`) })}
          </Tag>
        </Tooltip>
      )}
      {acts.includes('counter_audit_confirm') && (
        <Button type="primary" icon={<CheckOutlined />} loading={confirm.isPending} onClick={accept} data-testid="action-counter-audit-confirm">
          {t('expertActions.admin.accept')}
        </Button>
      )}
      {acts.includes('counter_audit_reject') && (
        <Button danger icon={<CloseOutlined />} onClick={() => setKind('reject')} data-testid="action-counter-audit-reject">
          {t('expertActions.admin.reject')}
        </Button>
      )}
      {acts.includes('counter_audit') && (
        <Button icon={<AuditOutlined />} onClick={() => setKind('counter_audit')} data-testid="action-counter-audit">
          {t('expertActions.admin.counterAudit')}
        </Button>
      )}
      {acts.includes('change_first_result') && (
        <Button icon={<FileSearchOutlined />} onClick={() => setKind('first_result')} data-testid="action-first-result">
          {t('expertActions.admin.firstResult')}
        </Button>
      )}
      <Modal
        open={kind !== null}
        title={kind ? t(TITLES[kind]) : ''}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        confirmLoading={run.isPending}
        onCancel={() => setKind(null)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false} onFinish={submit}>
          {kind === 'first_result' && (
            <Form.Item name="result" label={t('expertActions.admin.firstResultLabel')} rules={[{ required: true, message: t('expertActions.admin.firstResultRule') }]}>
              <Radio.Group options={(['consistent', 'minor_difference', 'major_difference'] as const).map((k) => ({ value: k, label: t(`expertActions.admin.result.${k}`) }))} />
            </Form.Item>
          )}
          <Form.Item name="reason" label={t('expertActions.admin.reason')} rules={reasonRequired ? [{ required: true, whitespace: true, message: t('diagnosis.rule.reason') }] : []}>
            <Input.TextArea rows={4} maxLength={500} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
