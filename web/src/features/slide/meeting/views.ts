// The presenter's view as it travels in a meeting: read from the viewer's panes
// (one slide, or every pane of a split view), numbered in the order it was sent,
// and applied by the followers pane by pane, the stale ones dropped.
import OpenSeadragon from 'openseadragon';
import type { ApiBody } from '../../../lib/api/types';
import type { Viewer } from '../osd';

export type Signal = ApiBody<'/api/consultation/meeting/{id}/signal', 'post'>;
export type PaneView = NonNullable<Signal['split']>[number];
/** A view as followers receive it (live, or stored with the meeting). */
export type ViewSignal = Omit<Signal, 'kind'>;

/** A pane of the page: the slide it shows and its viewer. */
export interface MeetingPane {
  slideId: number;
  viewer: Viewer;
}

/** Where a pane's viewport is going (not where its animation is now): followers jump there. */
export function paneView({ slideId, viewer }: MeetingPane): PaneView {
  const vp = viewer.viewport;
  const c = vp.getCenter(false);
  return { slide_id: slideId, x: c.x, y: c.y, zoom: vp.getZoom(false), rotation: vp.getRotation() };
}

let lastSeq = 0;

/**
 * The next number of this presenter's views: greater than every one this tab sent, and
 * (from the clock) than those it sent before a reload.
 */
export function nextSeq(now = Date.now()): number {
  lastSeq = Math.max(lastSeq + 1, now);
  return lastSeq;
}

/** The view message of the panes shown (the first leads; a split view sends every pane's). */
export function viewMessage(panes: MeetingPane[], seq: number, sent = Date.now()): Signal {
  const views = panes.map(paneView);
  const { slide_id, x, y, zoom, rotation } = views[0];
  return { kind: 'view', slide_id, x, y, zoom, rotation, split: views.length > 1 ? views : undefined, seq, sent };
}

function applyPane(viewer: Viewer, v: { x?: number; y?: number; zoom?: number; rotation?: number }) {
  viewer.viewport.setRotation(v.rotation ?? 0);
  viewer.viewport.zoomTo(v.zoom ?? 1, undefined, true);
  viewer.viewport.panTo(new OpenSeadragon.Point(v.x ?? 0, v.y ?? 0), true);
}

/** Applies a followed view to the panes shown: each pane takes the view of its slide. */
export function applyView(s: ViewSignal, panes: MeetingPane[]) {
  const views: ViewSignal[] | PaneView[] = s.split?.length ? s.split : [s];
  for (const v of views) {
    const pane = panes.find((p) => p.slideId === v.slide_id);
    if (pane) applyPane(pane.viewer, v);
  }
}

/**
 * The order of the views heard from the presenters: separate requests may arrive out of
 * order, so a view numbered below the last one heard from the same presenter is stale;
 * a new presenter (the lead handed over) starts afresh.
 */
export function viewOrder() {
  let last: { from: number; seq: number } | null = null;
  const stale = (from: number, seq?: number) => !!seq && !!last && last.from === from && seq <= last.seq;
  return {
    stale,
    /** Whether a view heard live is newer; if so it becomes the last heard. */
    accept(from: number, seq?: number): boolean {
      if (stale(from, seq)) return false;
      if (seq) last = { from, seq };
      return true;
    },
  };
}
