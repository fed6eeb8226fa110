import { Alert, Button, Drawer, Flex, Space, Spin, Tag, Typography } from 'antd';
import { ThunderboltFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCase, useCaseMessages, type CaseDetail } from '../../entities/case/api';
import { ageText } from '../../entities/case/age';
import { CaseStatusTag, TimingTag } from '../../entities/case/tags';
import { CaseLog } from '../../entities/case/CaseLog';
import { CaseMessages } from '../../entities/case/CaseMessages';
import type { ActionName, CaseRef } from './useCaseActions';
import { ACTION_LABEL } from './CaseRowActions';
import { CaseOverview } from './CaseOverview';
import { CaseFiles } from './CaseFiles';
import { Tabs } from '../../components/ui/Tabs';
import { ChargeStatus } from '../../entities/case/codes';

/** Server `actions` → the buttons of the detail header. */
export function detailActions(d: CaseDetail): ActionName[] {
  const a = new Set(d.actions ?? []);
  const out: ActionName[] = [];
  if (a.has('update')) out.push('edit');
  // Charging goes with sending: a clinician, who does not send, does not charge.
  if (a.has('update') && (a.has('submit') || a.has('consult_again')) && d.charge_status === ChargeStatus.None) out.push('charge');
  if (a.has('submit')) out.push('submit');
  if (a.has('consult_again')) out.push('consult_again');
  if (a.has('recall')) out.push('recall');
  if (a.has('recall_agree')) out.push('recall_agree');
  if (a.has('recall_reject')) out.push('recall_reject');
  if (a.has('recall_ignore')) out.push('recall_ignore');
  if (a.has('bind_expert')) out.push('bind_expert');
  if (a.has('referral')) out.push('referral');
  if (a.has('return_to_site')) out.push('return_to_site');
  if (a.has('delete')) out.push('delete');
  return out;
}

export const detailRef = (d: CaseDetail): CaseRef => ({ id: d.id, consult_no: d.consult_no, patient_name: d.patient_name, center_id: d.center_id, library_id: d.library_id, expert_id: d.expert_id, charge_status: d.charge_status });

/** The header line: number, status, timing, urgency, charge. */
export function CaseHeadline({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  return (
    <Space size={8} wrap>
      <Typography.Text strong className="tp-mono" style={{ fontSize: 18 }}>
        {d.consult_no || t('case.noNumberYet')}
      </Typography.Text>
      <CaseStatusTag label={d.status_label} />
      <TimingTag timing={d.timing} timeoutAt={d.timeout_at} />
      {d.expedite === 1 && (
        <Tag color="red" icon={<ThunderboltFilled />}>
          {t('case.expedite')}
        </Tag>
      )}
      <Typography.Text type="secondary">
        {d.pathology_number ? `${t('case.field.pathologyNumber')} ${d.pathology_number} · ` : ''}
        {d.patient_name} · {d.gender ? t(`case.gender.${d.gender}`) : ''} · {ageText(t, d.age, d.age_unit)} · {d.hospital_name}
      </Typography.Text>
    </Space>
  );
}

/** The case detail shared by every role. */
export function CaseDetailView({ id, onAction }: { id: number; onAction?: (a: ActionName, c: CaseRef) => void }) {
  const { t } = useTranslation();
  const detail = useCase(id);
  const msgs = useCaseMessages(id);
  if (detail.isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (detail.error || !detail.data) return <Alert type="error" showIcon message={detail.error?.message ?? t('case.loadFailed')} />;
  const d = detail.data;
  const actions = detailActions(d);
  return (
    <div data-testid="case-detail">
      <Flex justify="space-between" align="flex-start" gap={12} wrap style={{ marginBottom: 12 }}>
        <CaseHeadline d={d} />
        {onAction && actions.length > 0 && (
          <Space wrap>
            {actions.map((a, i) => (
              <Button key={a} type={i === 0 ? 'primary' : 'default'} danger={a === 'delete' || a === 'return_to_site' || a === 'recall_reject'} onClick={() => onAction(a, detailRef(d))} data-testid={`detail-${a}`}>
                {t(ACTION_LABEL[a])}
              </Button>
            ))}
          </Space>
        )}
      </Flex>
      {d.recall_reason && <Alert type="warning" showIcon message={t('case.field.recallReason')} description={d.recall_reason} style={{ marginBottom: 12 }} />}
      {d.return_reason && <Alert type="error" showIcon message={t('case.field.returnReason')} description={d.return_reason} style={{ marginBottom: 12 }} />}
      <Tabs
        items={[
          { key: 'overview', label: t('case.tabs.overview'), children: <CaseOverview d={d} /> },
          { key: 'files', label: `${t('case.tabs.files')} (${(d.attachments?.length ?? 0) + (d.slides?.length ?? 0)})`, children: <CaseFiles d={d} /> },
          { key: 'log', label: t('case.tabs.log'), children: <CaseLog id={id} /> },
          { key: 'messages', label: `${t('case.tabs.messages')} (${msgs.data?.length ?? 0})`, children: <CaseMessages caseId={id} height={360} /> },
        ]}
      />
    </div>
  );
}

export function CaseDetailDrawer({ id, onClose, onAction }: { id: number | null; onClose: () => void; onAction: (a: ActionName, c: CaseRef) => void }) {
  const { t } = useTranslation();
  return (
    <Drawer open={id !== null} onClose={onClose} width="min(1120px, 92vw)" title={t('case.detailTitle')} destroyOnHidden data-testid="case-detail-drawer">
      {id !== null && <CaseDetailView id={id} onAction={onAction} />}
    </Drawer>
  );
}
