// /diagnosis/item/:id — the expert's workspace: the case on the left, the
// diagnosis form with templates, earlier versions and the state-dependent
// action bar on the right. Keyboard: Ctrl+S saves, Alt+←/→ previous/next case.
// State and commands live in workspace/useWorkspace and useWorkspaceCommands.
import { Button, Card, Col, Result, Row, Spin } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CaseInfo } from './CaseInfo';
import { ActionDialog } from './dialogs';
import { ShareDialog } from './ShareDialog';
import { MeetingDialog } from './MeetingDialog';
import { VersionList } from './DiagnosisForm';
import { AdvicePanel } from './AdvicePanel';
import { ShotsPanel } from './ShotsPanel';
import { useWorkspace } from './workspace/useWorkspace';
import { useWorkspaceCommands } from './workspace/useWorkspaceCommands';
import { WorkspaceHeader } from './workspace/WorkspaceHeader';
import { DiagnosisCard } from './workspace/DiagnosisCard';
import { MyInvitations } from './workspace/MyInvitations';
import { useConfig } from '../../lib/appData';
import { hasRole } from '../../lib/access';
import { FrozenComparisonCard } from '../../entities/case/FrozenComparison';

export default function DiagnosisItemPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const w = useWorkspace();
  const commands = useWorkspaceCommands(w);
  const { id, d, detail, info, experts, busy } = w;
  const { data: config } = useConfig();
  // Who may read the frozen appointment a paraffin case followed.
  const frozenReader = hasRole((info.data?.roles ?? []).map((r) => r.role), ['expert', 'admin', 'center_admin', 'allocator']);

  if (!id) return <Result status="404" title={t('diagnosis.notFound')} />;
  if (detail.isLoading || info.isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (detail.isError || !d)
    return (
      <Result
        status="warning"
        title={detail.error instanceof Error ? detail.error.message : t('diagnosis.notFound')}
        extra={<Button onClick={() => navigate('/diagnosis/manage')}>{t('diagnosis.backToList')}</Button>}
      />
    );

  return (
    <div style={{ padding: '12px 16px' }} data-testid="diagnosis-item">
      <WorkspaceHeader w={w} d={d} />
      <Row gutter={12}>
        <Col xs={24} xl={13}>
          <Card size="small" styles={{ body: { paddingTop: 4 } }} style={{ height: '100%' }}>
            <CaseInfo d={d} />
          </Card>
        </Col>
        <Col xs={24} xl={11}>
          <div style={{ position: 'sticky', top: 12 }}>
            <DiagnosisCard w={w} d={d} commands={commands} />
            <FrozenComparisonCard caseId={d.id} enabled={frozenReader} />
            <VersionList versions={w.list} consultNo={d.consult_no} />
            <MyInvitations invitations={w.myInvitations.data ?? []} />
            <ShotsPanel d={d} />
            <AdvicePanel d={d} />
          </div>
        </Col>
      </Row>
      <ActionDialog kind={w.dialog} experts={experts.data ?? []} busy={busy} late={d.timing === 'timeout' && !!config?.timeout_reason} onCancel={() => w.setDialog(null)} onOk={commands.onDialog} />
      <ShareDialog caseId={d.id} open={w.shareOpen} onClose={() => w.setShareOpen(false)} />
      <MeetingDialog caseId={d.id} slideId={d.slides?.find((s) => s.viewable === 1)?.id ?? null} open={w.meetingOpen} onClose={() => w.setMeetingOpen(false)} />
      <ActionDialog kind={w.suppDialog} supplement experts={experts.data ?? []} busy={busy} onCancel={() => w.setSuppDialog(null)} onOk={commands.onSuppDialog} />
    </div>
  );
}
