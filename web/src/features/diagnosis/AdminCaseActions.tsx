// The administrator's actions on a published case in the workspace header:
// ask the expert to reconsider it (counter-audit), and, during a
// counter-audit, record whether the first report stands
// (/admin/change_diagnosis_first_result).
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Radio } from 'antd';
import { AuditOutlined, FileSearchOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { useApiError } from '../../components/ui/useApiError';
import { caseKeys, diagKeys, type CaseDetail } from './api';

type Kind = 'counter_audit' | 'first_result';
interface Values {
  reason?: string;
  result?: 'consistent' | 'minor_difference' | 'major_difference';
}

export function AdminCaseActions({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const qc = useQueryClient();
  const [kind, setKind] = useState<Kind | null>(null);
  const [form] = Form.useForm<Values>();
  const result = Form.useWatch('result', form);
  const run = useMutation({
    mutationFn: async (v: Values) =>
      kind === 'counter_audit'
        ? unwrap(await api.POST('/api/admin/consultation/{id}/counter_audit', { params: { path: { id: d.id } }, body: { reason: v.reason?.trim() } }))
        : unwrap(await api.POST('/api/admin/change_diagnosis_first_result', { body: { consult_id: d.id, result: v.result, reason: v.reason?.trim() } })),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: diagKeys.all }), qc.invalidateQueries({ queryKey: caseKeys.all })]),
  });
  const acts = d.actions ?? [];
  const submit = (v: Values) =>
    run.mutateAsync(v).then(() => {
      void message.success(kind === 'counter_audit' ? t('expertActions.admin.counterAuditDone') : t('expertActions.admin.firstResultDone'));
      setKind(null);
    }, (e) => showError(e));
  const reasonRequired = kind === 'counter_audit' || (result !== undefined && result !== 'consistent');
  return (
    <>
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
        title={kind === 'counter_audit' ? t('expertActions.admin.counterAudit') : t('expertActions.admin.firstResult')}
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
