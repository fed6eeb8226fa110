// The header's meetings (when show_meeting is on, for experts): the
// meetings going on that the user was invited to, each a click from the viewer.
import { Badge, Button, Dropdown, Tooltip } from 'antd';
import { VideoCameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { getMeeting, meetingPath, useMyMeetings } from '../../entities/case/meeting';
import { useAuthInfo, useConfig } from '../../lib/appData';
import { hasRole } from '../../lib/access';

export function MeetingsButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: config } = useConfig();
  const { data: info } = useAuthInfo();
  const on = !!config?.show_meeting && hasRole((info?.roles ?? []).map((r) => r.role), 'expert');
  const { data: meetings = [] } = useMyMeetings(on);
  if (!on) return null;
  const open = async (id: number) => {
    const m = await getMeeting(id);
    const slide = m.slides?.[0]?.id;
    if (slide) navigate(meetingPath(m, slide));
  };
  return (
    <Dropdown
      trigger={['click']}
      disabled={!meetings.length}
      menu={{
        items: meetings.map((m) => ({ key: m.id, label: <span data-testid={`meeting-open-${m.id}`}>{t('meeting.header.item', { no: m.consult_no })}</span> })),
        onClick: ({ key }) => void open(Number(key)),
      }}
    >
      <Tooltip title={t('meeting.header.title')}>
        <Button type="text" aria-label={t('meeting.header.title')} data-testid="meetings-button">
          <Badge count={meetings.length} size="small">
            <VideoCameraOutlined style={{ fontSize: 18 }} />
          </Badge>
        </Button>
      </Tooltip>
    </Dropdown>
  );
}
