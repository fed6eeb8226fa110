import { describe, expect, it } from 'vitest';
import type { Viewer } from '../osd';
import { applyView, nextSeq, viewMessage, viewOrder, type MeetingPane, type ViewSignal } from './views';

/** A viewer whose viewport keeps what is set on it (centre, zoom, rotation). */
function fakeViewer(x = 0.5, y = 0.5, zoom = 1, rotation = 0): Viewer {
  const vp = { x, y, zoom, rotation };
  const viewport = {
    getCenter: () => ({ x: vp.x, y: vp.y }),
    getZoom: () => vp.zoom,
    getRotation: () => vp.rotation,
    setRotation: (r: number) => void (vp.rotation = r),
    zoomTo: (z: number) => void (vp.zoom = z),
    panTo: (p: { x: number; y: number }) => void Object.assign(vp, { x: p.x, y: p.y }),
  };
  return { viewport } as unknown as Viewer;
}

const viewOf = (v: Viewer) => [v.viewport.getCenter().x, v.viewport.getCenter().y, v.viewport.getZoom(), v.viewport.getRotation()];

describe('the presenter’s view of a split view', () => {
  it('sends every pane’s slide and view, the first pane leading', () => {
    const panes: MeetingPane[] = [
      { slideId: 7, viewer: fakeViewer(0.2, 0.3, 2, 0) },
      { slideId: 9, viewer: fakeViewer(0.6, 0.1, 8, 90) },
      { slideId: 12, viewer: fakeViewer(0.9, 0.4, 0.5, 180) },
    ];
    const m = viewMessage(panes, 41, 1000);
    expect(m).toMatchObject({ kind: 'view', slide_id: 7, x: 0.2, y: 0.3, zoom: 2, rotation: 0, seq: 41, sent: 1000 });
    expect(m.split).toEqual([
      { slide_id: 7, x: 0.2, y: 0.3, zoom: 2, rotation: 0 },
      { slide_id: 9, x: 0.6, y: 0.1, zoom: 8, rotation: 90 },
      { slide_id: 12, x: 0.9, y: 0.4, zoom: 0.5, rotation: 180 },
    ]);
    expect(viewMessage(panes.slice(0, 1), 42).split).toBeUndefined();
  });

  it('is applied by the follower pane by pane, each to the pane of its slide', () => {
    const a = fakeViewer();
    const b = fakeViewer();
    // The follower's panes in another order than the presenter's.
    applyView(
      { slide_id: 7, x: 0.2, y: 0.3, zoom: 2, split: [{ slide_id: 7, x: 0.2, y: 0.3, zoom: 2, rotation: 0 }, { slide_id: 9, x: 0.6, y: 0.1, zoom: 8, rotation: 90 }] },
      [{ slideId: 9, viewer: b }, { slideId: 7, viewer: a }],
    );
    expect(viewOf(a)).toEqual([0.2, 0.3, 2, 0]);
    expect(viewOf(b)).toEqual([0.6, 0.1, 8, 90]);
  });

  it('applies one slide’s view to its pane, and nothing to a pane not open', () => {
    const a = fakeViewer();
    applyView({ slide_id: 7, x: 0.4, y: 0.6, zoom: 3, rotation: 270 }, [{ slideId: 7, viewer: a }]);
    expect(viewOf(a)).toEqual([0.4, 0.6, 3, 270]);
    applyView({ slide_id: 7, split: [{ slide_id: 9, x: 0.1, y: 0.1, zoom: 5, rotation: 0 }] }, [{ slideId: 7, viewer: a }]);
    expect(viewOf(a)).toEqual([0.4, 0.6, 3, 270]);
  });
});

describe('views arriving out of order', () => {
  /** A follower applying what its order lets through, as the meeting does. */
  function follower() {
    const order = viewOrder();
    const applied: number[] = [];
    return { applied, hear: (from: number, v: ViewSignal) => order.accept(from, v.seq) && applied.push(v.x ?? 0), order };
  }
  const view = (seq: number, x = seq): ViewSignal => ({ slide_id: 7, x, y: 0, zoom: 1, seq });

  it('drops a view older than the last applied from the same presenter', () => {
    const f = follower();
    // Sent 1, 2, 3, 4; the requests overtake each other.
    for (const seq of [2, 1, 4, 3]) f.hear(5, view(seq));
    expect(f.applied).toEqual([2, 4]);
    // The same view twice is applied once.
    f.hear(5, view(4));
    expect(f.applied).toEqual([2, 4]);
    expect(f.order.stale(5, 3)).toBe(true);
    expect(f.order.stale(5, 5)).toBe(false);
  });

  it('starts afresh with a new presenter, whatever its numbers', () => {
    const f = follower();
    f.hear(5, view(1_000_000, 1));
    f.hear(6, view(10, 2)); // the lead handed over; its clock is behind
    f.hear(6, view(9, 3));
    f.hear(6, view(11, 4));
    expect(f.applied).toEqual([1, 2, 4]);
    expect(f.order.stale(5, 2_000_000)).toBe(false);
  });

  it('numbers a presenter’s views upwards, even when the clock stands still or goes back', () => {
    const a = nextSeq(5_000);
    const b = nextSeq(5_000);
    const c = nextSeq(4_000);
    const d = nextSeq(9_000_000_000_000);
    expect(b).toBeGreaterThan(a);
    expect(c).toBeGreaterThan(b);
    expect(d).toBe(9_000_000_000_000);
  });
});
