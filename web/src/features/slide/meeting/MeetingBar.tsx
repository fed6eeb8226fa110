// The meeting's panel over the viewer: who presents, who is there, follow
// or look around, hand the lead, end or leave; and the others' pointers.
import { Alert, Button, Card, List, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { AimOutlined, CrownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import OpenSeadragon from 'openseadragon';
import { useViewportTick, type Viewer } from '../osd';
import { useMeeting } from './useMeeting';
import type { MeetingPane } from './views';

interface Props {
  meetingId: number;
  caseId: number;
  /** The slides the page shows: one, or the split view's. */
  slideIds: number[];
  /** Those of them whose viewer is open (a stable array). */
  panes: MeetingPane[];
  /** Runs before a followed view is applied. */
  onFollow?: () => void;
}

/** A viewer's centre and zoom as "x,y,zoom" (the walks read it). */
function viewText(viewer: Viewer) {
  const c = viewer.viewport.getCenter(true);
  return `${c.x.toFixed(5)},${c.y.toFixed(5)},${viewer.viewport.getZoom(true).toFixed(4)}`;
}

/** The view of one pane of a split view, kept in step with it. */
function PaneViewText({ pane }: { pane: MeetingPane }) {
  useViewportTick(pane.viewer);
  return <span hidden data-testid={`meeting-pane-${pane.slideId}`} data-view={viewText(pane.viewer)} />;
}

export function MeetingBar({ meetingId, caseId, slideIds, panes, onFollow }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const m = useMeeting(meetingId, caseId, slideIds, panes, onFollow);
  const slideId = slideIds[0];
  const viewer = panes.find((p) => p.slideId === slideId)?.viewer ?? null;
  useViewportTick(viewer);
  const presenter = m.meeting?.members?.find((x) => x.user_id === m.meeting?.presenter_id);
  return (
    <>
      {viewer &&
        Object.entries(m.pointers).map(([id, p]) => {
          const px = viewer.viewport.pixelFromPoint(new OpenSeadragon.Point(p.x, p.y), true);
          return (
            <div key={id} data-testid="meeting-pointer" style={{ position: 'absolute', left: px.x - 6, top: px.y - 6, pointerEvents: 'none', zIndex: 5 }}>
              <div style={{ width: 12, height: 12, borderRadius: 6, background: '#ef4444', boxShadow: '0 0 0 3px rgba(239,68,68,0.35)' }} />
              <span style={{ fontSize: 12, background: 'rgba(17,24,39,0.8)', color: '#fff', padding: '0 4px', borderRadius: 3 }}>{p.name}</span>
            </div>
          );
        })}
      <Card
        size="small"
        data-testid="meeting-bar"
        data-view={viewer ? viewText(viewer) : ''}
        data-presenting={m.presenting ? '1' : '0'}
        data-layout={slideIds.join(',')}
        style={{ position: 'absolute', right: 12, top: 12, width: 260, zIndex: 6, boxShadow: '0 4px 16px rgba(15,42,71,0.18)' }}
        title={<Space><AimOutlined />{t('meeting.bar.title')}</Space>}
      >
        {panes.length > 1 && panes.map((p) => <PaneViewText key={p.slideId} pane={p} />)}
        {m.ended ? (
          <Alert type="info" showIcon message={t(`meeting.ended.${m.ended}`, { defaultValue: m.ended })} data-testid="meeting-ended"
            action={<Button size="small" onClick={() => navigate(`/diagnosis/item/${caseId}`)}>{t('meeting.bar.back')}</Button>} />
        ) : (
          <Space direction="vertical" style={{ width: '100%' }} size={6}>
            <Typography.Text data-testid="meeting-presenter">
              <CrownOutlined style={{ color: '#d97706' }} /> {t('meeting.bar.presenter')}: {presenter?.name ?? '—'}
            </Typography.Text>
            {!m.presenting && (
              <Space>
                <Switch size="small" checked={m.follow} onChange={m.setFollow} data-testid="meeting-follow" aria-label={t('meeting.bar.follow')} />
                <span>{t('meeting.bar.follow')}</span>
              </Space>
            )}
            <List
              size="small"
              header={<Typography.Text type="secondary">{t('meeting.bar.participants')}</Typography.Text>}
              dataSource={m.meeting?.members ?? []}
              renderItem={(x) => (
                <List.Item
                  data-testid={`meeting-member-${x.user_id}`}
                  extra={
                    m.presenting && x.present && x.user_id !== m.me ? (
                      <Tooltip title={t('meeting.bar.lead')}>
                        <Button size="small" type="link" onClick={() => void m.update({ action: 'lead', presenter_id: x.user_id })} data-testid={`meeting-lead-${x.user_id}`}>
                          {t('meeting.bar.leadShort')}
                        </Button>
                      </Tooltip>
                    ) : null
                  }
                >
                  <Space size={4}>
                    {x.name}
                    {x.present ? <Tag style={{ color: '#166534', background: '#dcfce7', borderColor: '#86efac' }}>{t('meeting.bar.present')}</Tag> : <Tag>{t('meeting.bar.absent')}</Tag>}
                  </Space>
                </List.Item>
              )}
            />
            {m.presenting ? (
              <Button danger block size="small" onClick={() => void m.update({ action: 'end' })} data-testid="meeting-end">{t('meeting.bar.end')}</Button>
            ) : (
              <Button block size="small" onClick={() => navigate(`/diagnosis/item/${caseId}`)} data-testid="meeting-leave">{t('meeting.bar.leave')}</Button>
            )}
          </Space>
        )}
      </Card>
    </>
  );
}
