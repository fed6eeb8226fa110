// Keeps the live event stream open while the user is signed in: new
// notifications update the bell (and alert, if the user opted in); "changed"
// hints refetch the case lists, badges and worklists on screen. Badge counts
// are fetched when something changed, never polled. It also lays the unread
// count over the menu badges (key message_unread).
import { useContext, useEffect, useMemo } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BadgeCountContext } from '../../lib/badges';
import { openLive, type LiveEvent } from '../../lib/live';
import { emitMeetingEvent, type MeetingEvent } from '../../lib/meetingBus';
import { useSession } from '../../lib/session';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { useLanguage } from '../../lib/prefs';
import { alert } from './alerts';
import { messageKeys, useBell, type Bell, type Notification } from './api';

/** How long hints are gathered before the lists they name are fetched again. */
export const HINT_WINDOW_MS = 150;

/** The query-key prefixes a topic of a "changed" hint refreshes. */
export const topicKeys: Record<string, readonly (readonly string[])[]> = {
  cases: [['consultation'], ['diagnosis']],
  frozen: [['frozen'], ['duty']],
  messages: [messageKeys.all],
  notices: [messageKeys.notices],
  meetings: [['meeting']],
};

export function LiveEvents() {
  const { token, locked } = useSession();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const parent = useContext(BadgeCountContext);
  const lang = useLanguage(); // a new language opens a new stream (the ticket carries it)
  const bell = useBell(!!token && !locked);

  useEffect(() => {
    if (!token || locked) return;
    // Hints arriving together (a batch assignment, a busy center) refetch once.
    const pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refetch = (topics: string[]) => {
      topics.forEach((x) => pending.add(x));
      timer ??= setTimeout(() => {
        timer = undefined;
        for (const topic of pending) for (const k of topicKeys[topic] ?? []) void qc.invalidateQueries({ queryKey: k });
        pending.clear();
      }, HINT_WINDOW_MS);
    };
    const onEvent = (e: LiveEvent) => {
      if (e.event === 'hello') {
        // (Re)connected: whatever happened meanwhile is fetched again.
        void qc.invalidateQueries({ queryKey: messageKeys.all });
        for (const k of topicKeys.cases) void qc.invalidateQueries({ queryKey: k });
        return;
      }
      if (e.event === 'meeting') return emitMeetingEvent(JSON.parse(e.data) as MeetingEvent);
      if (e.event === 'notification') {
        const n = JSON.parse(e.data) as Notification & { unread: number };
        qc.setQueryData<Bell>(messageKeys.bell, (old) => ({ unread: n.unread, latest: [n, ...(old?.latest ?? []).filter((x) => x.id !== n.id)].slice(0, 8) }));
        void qc.invalidateQueries({ queryKey: messageKeys.list });
        if (n.kind === 'notice' && n.level === 'very_important') void qc.invalidateQueries({ queryKey: messageKeys.pending });
        alert(n, t('app.title'), (link) => navigate(link));
        return;
      }
      if (e.event === 'changed') {
        refetch((JSON.parse(e.data) as { topics: string[] }).topics);
      }
    };
    const ticket = async () => unwrap(await api.POST('/api/events/ticket')).ticket;
    const live = openLive({ ticket, onEvent });
    return () => {
      live.stop();
      clearTimeout(timer);
    };
  }, [token, locked, lang, qc, navigate, t]);

  const unread = bell.data?.unread ?? 0;
  const value = useMemo(() => ({ ...parent, message_unread: unread }), [parent, unread]);
  return (
    <BadgeCountContext.Provider value={value}>
      <Outlet />
    </BadgeCountContext.Provider>
  );
}
