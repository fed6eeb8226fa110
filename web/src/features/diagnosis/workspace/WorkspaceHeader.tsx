import { Button, Flex, Space, Tag, Tooltip, Typography } from 'antd';
import { ArrowLeftOutlined, FilePdfOutlined, LeftOutlined, LockOutlined, RightOutlined, ToolOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../../components/ui/useApiError';
import type { CaseDetail } from '../../../entities/case/api';
import { CaseStatusTag, TimingTag } from '../../../entities/case/tags';
import { Elapsed, useCaseFrozen } from '../../../entities/case/FrozenElapsed';
import { previewReport } from '../api';
import { TransferActions } from '../TransferActions';
import type { Workspace } from './useWorkspace';

/** Who holds the case's lock, as the header names them (null when unlocked). */
export function lockHolderName(d: CaseDetail, me: number, meText: string): string | null {
  if (d.locked_by == null) return null;
  if (d.locked_by === me) return meText;
  return d.locked_by === d.expert_id ? d.expert_name || `#${d.locked_by}` : `#${d.locked_by}`;
}

/** The workspace's top line: back, the patient and case number, status tags, and the case-level buttons. */
export function WorkspaceHeader({ w, d }: { w: Workspace; d: CaseDetail }) {
  const { t } = useTranslation();
  const showError = useApiError();
  const { id, me, staffView, isExpert, work, nav, go } = w;
  const lockHolder = lockHolderName(d, me, t('diagnosis.lock.me'));
  const frozen = useCaseFrozen(id, isExpert || staffView).data;
  return (
    <Flex align="center" justify="space-between" gap={12} wrap style={{ marginBottom: 10 }}>
      <Flex align="center" gap={10} wrap>
        <Tooltip title={t('diagnosis.backToList')}>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => void go('/diagnosis/manage')} aria-label={t('diagnosis.backToList')} />
        </Tooltip>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {d.patient_name || '—'}
        </Typography.Title>
        <Typography.Text type="secondary" className="tp-mono">
          {d.consult_no}
        </Typography.Text>
        <CaseStatusTag label={d.status_label} />
        <TimingTag timing={d.timing} timeoutAt={d.timeout_at} />
        {frozen && <Elapsed from={frozen.arrived_at} until={frozen.reported_at} thresholds={frozen.thresholds} title={t('diagnosis.frozenClock')} />}
        {d.expedite ? <Tag color="red">{t('case.field.expedite')}</Tag> : null}
        {staffView && d.expert_name && (
          <Tag bordered={false} color="blue" data-testid="case-expert">
            {t('diagnosis.expertTag', { name: d.expert_name })}
          </Tag>
        )}
        {d.staff_name && (
          <Tag icon={<ToolOutlined />} bordered={false} data-testid="case-staff">
            {t('diagnosis.staffTag', { name: d.staff_name })}
          </Tag>
        )}
        {lockHolder && (
          <Tag icon={<LockOutlined />} color={d.locked_by === me ? 'blue' : 'orange'} data-testid="lock-holder">
            {t('diagnosis.lock.heldBy', { name: lockHolder })}
          </Tag>
        )}
      </Flex>
      <Space>
        <TransferActions d={d} me={me} />
        {work && (
          <Button icon={<FilePdfOutlined />} onClick={() => previewReport(id).catch(showError)} data-testid="preview-report">
            {t('diagnosis.previewReport')}
          </Button>
        )}
        {isExpert && (
          <>
            <Tooltip title="Alt + ←">
              <Button icon={<LeftOutlined />} disabled={!nav.data?.prev} onClick={() => void go(`/diagnosis/item/${nav.data!.prev}`)} data-testid="prev-case">
                {t('diagnosis.prev')}
              </Button>
            </Tooltip>
            <Tooltip title="Alt + →">
              <Button disabled={!nav.data?.next} onClick={() => void go(`/diagnosis/item/${nav.data!.next}`)} data-testid="next-case">
                {t('diagnosis.next')} <RightOutlined />
              </Button>
            </Tooltip>
          </>
        )}
      </Space>
    </Flex>
  );
}
