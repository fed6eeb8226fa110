// A meeting held in the viewer: join on open, the presenter's view (every pane's
// of a split view) sent as it changes, followed by the others while they follow
// (stale views dropped), pointers both ways; annotations saved in the meeting read again.
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import OpenSeadragon from 'openseadragon';
import { api } from '../../../lib/api/client';
import { unwrap } from '../../../lib/api/errors';
import { onMeetingEvent } from '../../../lib/meetingBus';
import { useAuthInfo } from '../../../lib/appData';
import type { Meeting } from '../../../entities/case/meeting';
import { applyView, nextSeq, viewMessage, viewOrder, type MeetingPane, type ViewSignal } from './views';

export interface Pointer {
  x: number;
  y: number;
  name: string;
}

/** At most one view message per VIEW_MS, and one pointer message per POINTER_MS. */
const VIEW_MS = 50;
const POINTER_MS = 80;

const path = (id: number) => ({ params: { path: { id } } });

/**
 * Going from one slide to a split view (or back) swaps the viewer page: the meeting is
 * left only if no viewer of it opens within QUIT_GRACE_MS (a presenter who left would
 * end it for everyone).
 */
const QUIT_GRACE_MS = 2000;
const viewers = new Map<number, number>();
const quitting = new Map<number, ReturnType<typeof setTimeout>>();

function stay(meetingId: number) {
  clearTimeout(quitting.get(meetingId));
  quitting.delete(meetingId);
  viewers.set(meetingId, (viewers.get(meetingId) ?? 0) + 1);
}

function leaveSoon(meetingId: number) {
  const n = (viewers.get(meetingId) ?? 1) - 1;
  viewers.set(meetingId, n);
  if (n > 0) return;
  quitting.set(
    meetingId,
    setTimeout(() => {
      quitting.delete(meetingId);
      if (!viewers.get(meetingId)) void api.POST('/api/user/meeting/quit/{id}', path(meetingId)).catch(() => undefined);
    }, QUIT_GRACE_MS),
  );
}

/** Where a view is shown: one slide, or a split view of 2–4. */
export const layoutOf = (slideId: number, split?: number[] | null) => (split?.length ? `split:${split.join(',')}` : `slide:${slideId}`);

/** The page that shows a followed view: the slide, or the split view of its slides. */
export function followPath(s: { slide_id: number; split?: number[] | null }, caseId: number, meetingId: number): string {
  const q = `case=${caseId}&meeting=${meetingId}`;
  return s.split?.length ? `/slide/compare?ids=${s.split.join(',')}&${q}` : `/slide/view/${s.slide_id}?${q}`;
}

/**
 * Loads whose answers are applied in the order the loads were started: an answer is
 * dropped only when the answer to a later load was applied already (a later load that
 * fails leaves the earlier answer standing).
 */
export function latestWins<T>(apply: (value: T) => void) {
  let started = 0;
  let applied = 0;
  return async (load: () => Promise<T>) => {
    const n = ++started;
    const value = await load();
    if (n > applied) {
      applied = n;
      apply(value);
    }
  };
}

/**
 * The meeting as seen from one viewer page: slideIds are the slides it shows (one, or
 * the split view's), panes those of them whose viewer is open; onFollow runs before a
 * followed view is applied (a split view stops its panes following one another).
 */
export function useMeeting(meetingId: number, caseId: number, slideIds: number[], panes: MeetingPane[], onFollow?: () => void) {
  const navigate = useNavigate();
  const { data: info } = useAuthInfo();
  const me = info?.user.id ?? 0;
  const [meeting, setMeeting] = useState<Meeting | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const [follow, setFollow] = useState(true);
  const [pointers, setPointers] = useState<Record<number, Pointer>>({});
  const followRef = useRef(follow);
  followRef.current = follow;
  const lastView = useRef<ViewSignal | null>(null);
  const [order] = useState(viewOrder);
  const slideId = slideIds[0];
  const split = slideIds.length > 1 ? slideIds : null;
  const viewer = panes.find((p) => p.slideId === slideId)?.viewer ?? null;
  const panesRef = useRef(panes);
  panesRef.current = panes;
  const presenting = !!meeting && meeting.presenter_id === me && !ended;

  // Joined once on opening; the participant list is read again when it changes.
  // An answer older than one applied is dropped: when two people join at once, the
  // answer to this viewer's join can arrive after the list read on the other's
  // arrival, and would put back a list without them; a read that fails keeps the last.
  const [load] = useState(() => latestWins<Meeting>(setMeeting));
  const refresh = () => load(async () => unwrap(await api.GET('/api/consultation/meeting/{id}', path(meetingId)))).catch(() => undefined);
  useEffect(() => {
    stay(meetingId);
    load(async () => unwrap(await api.POST('/api/consultation/meeting/{id}/join', path(meetingId)))).catch((e: Error) => setEnded(e.message));
    return () => leaveSoon(meetingId);
  }, [meetingId, load]);

  const here = layoutOf(slideId, split);
  const apply = (s: ViewSignal | null | undefined) => {
    if (!s || !viewer) return;
    const ids = s.split?.map((p) => p.slide_id);
    if (layoutOf(s.slide_id, ids) !== here) {
      navigate(followPath({ slide_id: s.slide_id, split: ids }, caseId, meetingId), { replace: true });
      return;
    }
    onFollow?.();
    applyView(s, panesRef.current);
  };

  // The last view when joining, and when following again: the one last heard at
  // once, then the server's, since the stream may have missed one while it reconnected.
  useEffect(() => {
    if (presenting || !follow) return;
    const v = lastView.current ?? (meeting?.view as ViewSignal | null);
    if (v) apply(v);
    if (!meeting) return;
    let current = true;
    api
      .GET('/api/consultation/meeting/{id}', path(meetingId))
      .then((r) => {
        const m = unwrap(r);
        const stored = m.view as ViewSignal | null;
        // Not one older than the last heard from this presenter (it may have been stored meanwhile).
        if (current && stored && followRef.current && !order.stale(m.presenter_id, stored.seq)) apply(stored);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [meeting?.id, follow, viewer, here, panes]);

  // Tiles leave a connection free for the meeting's messages (a browser
  // opens six to a server, the live stream holds one).
  useEffect(() => {
    if (viewer) (viewer as unknown as { imageLoader: { jobLimit: number } }).imageLoader.jobLimit = 3;
  }, [viewer]);

  useEffect(
    () =>
      onMeetingEvent((e) => {
        if (e.meeting_id !== meetingId) return;
        if (e.kind === 'ended') return setEnded(e.name || 'ended');
        if (e.kind === 'members') return void refresh();
        if (e.kind === 'view' && e.signal && order.accept(e.from, e.signal.seq)) {
          lastView.current = e.signal;
          if (followRef.current) apply(e.signal);
        }
        if (e.kind === 'pointer' && e.signal)
          setPointers((p) => {
            const next = { ...p };
            if (e.signal!.hide || e.signal!.slide_id !== slideId) delete next[e.from];
            else next[e.from] = { x: e.signal!.x ?? 0, y: e.signal!.y ?? 0, name: e.name ?? '' };
            return next;
          });
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [meetingId, slideId, viewer, here, panes],
  );

  // The presenter sends the view as it changes, once every pane is open.
  const ready = panes.length === slideIds.length;
  useEffect(() => {
    if (!ready || !presenting) return;
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const send = () => {
      last = Date.now();
      const body = viewMessage(panes, nextSeq());
      void api.POST('/api/consultation/meeting/{id}/signal', { ...path(meetingId), body }).catch(() => undefined);
    };
    const onChange = () => {
      clearTimeout(timer);
      const wait = VIEW_MS - (Date.now() - last);
      if (wait <= 0) send();
      else timer = setTimeout(send, wait);
    };
    const viewers = panes.map((p) => p.viewer);
    for (const v of viewers) {
      v.addHandler('viewport-change', onChange);
      v.addHandler('animation-finish', onChange);
    }
    send();
    return () => {
      clearTimeout(timer);
      for (const v of viewers) {
        v.removeHandler('viewport-change', onChange);
        v.removeHandler('animation-finish', onChange);
      }
    };
  }, [panes, ready, presenting, meetingId, here]);

  // Everyone's pointer over the slide.
  useEffect(() => {
    if (!viewer || ended) return;
    let last = 0;
    const el = viewer.element;
    const move = (ev: MouseEvent) => {
      if (Date.now() - last < POINTER_MS) return;
      last = Date.now();
      const r = el.getBoundingClientRect();
      const pt = viewer.viewport.pointFromPixel(new OpenSeadragon.Point(ev.clientX - r.left, ev.clientY - r.top), true);
      void api.POST('/api/consultation/meeting/{id}/signal', { ...path(meetingId), body: { kind: 'pointer', slide_id: slideId, x: pt.x, y: pt.y } }).catch(() => undefined);
    };
    const leave = () =>
      void api.POST('/api/consultation/meeting/{id}/signal', { ...path(meetingId), body: { kind: 'pointer', slide_id: slideId, hide: true } }).catch(() => undefined);
    el.addEventListener('mousemove', move);
    el.addEventListener('mouseleave', leave);
    return () => {
      el.removeEventListener('mousemove', move);
      el.removeEventListener('mouseleave', leave);
    };
  }, [viewer, meetingId, slideId, ended]);

  const update = async (body: { action: 'end' | 'lead'; presenter_id?: number }) =>
    setMeeting(unwrap(await api.PATCH('/api/consultation/meeting/{id}', { ...path(meetingId), body })));

  return { me, meeting, ended, presenting, follow, setFollow, pointers, update };
}

/** Reads a slide's annotations again when someone in the meeting saved theirs (pushed live). */
export function useMeetingAnnotations(meetingId: number | null, slideId: number, reload: () => void) {
  const reloadRef = useRef(reload);
  reloadRef.current = reload;
  useEffect(
    () =>
      meetingId
        ? onMeetingEvent((e) => {
            if (e.meeting_id === meetingId && e.kind === 'annotations' && e.signal?.slide_id === slideId) reloadRef.current();
          })
        : undefined,
    [meetingId, slideId],
  );
}
