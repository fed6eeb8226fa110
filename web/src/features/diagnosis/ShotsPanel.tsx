// Screenshots of the case in the workspace: saved from the slide viewer
// ("Save screenshot to case"); the checked ones are printed in the report.
import { Button, Card, Checkbox, Empty, Flex, Image, Popconfirm, Space, Spin, Tooltip, Typography } from 'antd';
import { CameraOutlined, DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useApiError } from '../../components/ui/useApiError';
import type { CaseDetail } from '../../entities/case/api';
import { useShotActions, useShotImage, useShots, type Shot } from './shotsApi';

const REPORT_MAX = 6;

function ShotCard({ caseId, shot, editable }: { caseId: number; shot: Shot; editable: boolean }) {
  const { t } = useTranslation();
  const showError = useApiError();
  const img = useShotImage(caseId, shot.id);
  const acts = useShotActions(caseId);
  return (
    <div style={{ width: 150, border: '1px solid #eef1f5', borderRadius: 6, padding: 6 }} data-testid={`shot-${shot.id}`}>
      <div style={{ height: 100, display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#fafafa' }}>
        {img.data ? <Image src={img.data} height={100} style={{ objectFit: 'contain', maxWidth: 136 }} alt={shot.caption} /> : <Spin size="small" />}
      </div>
      <Typography.Paragraph
        style={{ margin: '4px 0', fontSize: 12, minHeight: 20 }}
        ellipsis={{ rows: 2, tooltip: shot.caption }}
        editable={editable ? { maxLength: 200, onChange: (caption) => caption !== shot.caption && acts.update.mutate({ shotId: shot.id, body: { caption } }, { onError: (e) => showError(e) }) } : false}
      >
        {shot.caption || (editable ? '' : '—')}
      </Typography.Paragraph>
      <Flex justify="space-between" align="center">
        <Checkbox
          checked={shot.selected}
          disabled={!editable || acts.update.isPending}
          onChange={(e) => acts.update.mutate({ shotId: shot.id, body: { selected: e.target.checked } }, { onError: (err) => showError(err) })}
          data-testid={`shot-select-${shot.id}`}
        >
          <span style={{ fontSize: 12 }}>{t('shots.inReport')}</span>
        </Checkbox>
        {editable && (
          <Popconfirm title={t('shots.confirmDelete')} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => acts.remove.mutateAsync(shot.id).catch((e) => showError(e))}>
            <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} />
          </Popconfirm>
        )}
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 11 }}>
        {shot.created_by_name} · {formatDateTime(shot.created_at)}
      </Typography.Text>
    </div>
  );
}

export function ShotsPanel({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const shots = useShots(d.id);
  const editable = (d.actions ?? []).includes('shots_update');
  const list = shots.data ?? [];
  if (!editable && list.length === 0) return null;
  const selected = list.filter((s) => s.selected).length;
  return (
    <Card
      size="small"
      style={{ marginTop: 12 }}
      title={
        <Space>
          <CameraOutlined />
          {t('shots.title')}
        </Space>
      }
      extra={
        list.length > 0 && (
          <Tooltip title={t('shots.reportHint', { max: REPORT_MAX })}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="shots-selected">
              {t('shots.selected', { count: selected, max: REPORT_MAX })}
            </Typography.Text>
          </Tooltip>
        )
      }
      data-testid="shots-panel"
    >
      {shots.isLoading ? (
        <Spin />
      ) : list.length ? (
        <Flex gap={8} wrap>
          {list.map((s) => (
            <ShotCard key={s.id} caseId={d.id} shot={s} editable={editable} />
          ))}
        </Flex>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('shots.empty')} />
      )}
    </Card>
  );
}
