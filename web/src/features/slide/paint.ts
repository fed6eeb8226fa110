// Canvas painting of annotations (thousands stay smooth: one pass per frame,
// shapes outside the view skipped) and hit-testing for selection by click.
import type { Annotation } from './annotations';
import type { Pt } from './geometry';

type M = [number, number, number, number, number, number];

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const boxCache = new WeakMap<Annotation, Box>();
export function boxOf(a: Annotation): Box {
  let b = boxCache.get(a);
  if (!b) {
    b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    for (const p of a.points) {
      if (p.x < b.x0) b.x0 = p.x;
      if (p.y < b.y0) b.y0 = p.y;
      if (p.x > b.x1) b.x1 = p.x;
      if (p.y > b.y1) b.y1 = p.y;
    }
    boxCache.set(a, b);
  }
  return b;
}

/** Image-space rectangle visible on screen (bounds of the inverse-mapped corners). */
export function visibleImageBox(m: M, w: number, h: number): Box {
  const det = m[0] * m[3] - m[1] * m[2] || 1;
  const inv = (sx: number, sy: number): Pt => {
    const x = sx - m[4], y = sy - m[5];
    return { x: (m[3] * x - m[2] * y) / det, y: (-m[1] * x + m[0] * y) / det };
  };
  const c = [inv(0, 0), inv(w, 0), inv(0, h), inv(w, h)];
  return { x0: Math.min(...c.map((p) => p.x)), y0: Math.min(...c.map((p) => p.y)), x1: Math.max(...c.map((p) => p.x)), y1: Math.max(...c.map((p) => p.y)) };
}

export function paint(ctx: CanvasRenderingContext2D, list: readonly Annotation[], m: M, cssW: number, cssH: number, dpr: number, skipId: number | null) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  const s = Math.hypot(m[0], m[1]) || 1;
  const view = visibleImageBox(m, cssW, cssH);
  const margin = 20 / s;
  ctx.setTransform(dpr * m[0], dpr * m[1], dpr * m[2], dpr * m[3], dpr * m[4], dpr * m[5]);
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  for (const a of list) {
    if (a.tool === 'text' || a.id === skipId) continue;
    const b = boxOf(a);
    if (b.x1 < view.x0 - margin || b.x0 > view.x1 + margin || b.y1 < view.y0 - margin || b.y0 > view.y1 + margin) continue;
    const p = a.points;
    ctx.beginPath();
    if ((b.x1 - b.x0) * s < 1.5 && (b.y1 - b.y0) * s < 1.5) {
      ctx.rect(b.x0, b.y0, 1.5 / s, 1.5 / s);
    } else {
      switch (a.tool) {
        case 'rect':
          ctx.rect(b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0);
          break;
        case 'ellipse':
          ctx.ellipse((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2, (b.x1 - b.x0) / 2, (b.y1 - b.y0) / 2, 0, 0, Math.PI * 2);
          break;
        default:
          ctx.moveTo(p[0].x, p[0].y);
          for (let i = 1; i < p.length; i++) ctx.lineTo(p[i].x, p[i].y);
          if (a.tool === 'polygon') ctx.closePath();
      }
    }
    ctx.strokeStyle = a.color;
    ctx.lineWidth = a.lineWidth / s;
    ctx.stroke();
    if (a.tool === 'arrow' && p.length >= 2) {
      const [p0, p1] = p;
      const ang = Math.atan2(p1.y - p0.y, p1.x - p0.x);
      const len = (4 + a.lineWidth * 2) / s;
      ctx.beginPath();
      ctx.moveTo(p1.x, p1.y);
      ctx.lineTo(p1.x - len * 1.6 * Math.cos(ang) + len * 0.7 * Math.sin(ang), p1.y - len * 1.6 * Math.sin(ang) - len * 0.7 * Math.cos(ang));
      ctx.lineTo(p1.x - len * 1.6 * Math.cos(ang) - len * 0.7 * Math.sin(ang), p1.y - len * 1.6 * Math.sin(ang) + len * 0.7 * Math.cos(ang));
      ctx.closePath();
      ctx.fillStyle = a.color;
      ctx.fill();
    }
  }
}

function segDist(p: Pt, a: Pt, b: Pt): number {
  const dx = b.x - a.x, dy = b.y - a.y;
  const l2 = dx * dx + dy * dy;
  const t = l2 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2)) : 0;
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}
function inPolygon(p: Pt, pts: readonly Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    if (pts[i].y > p.y !== pts[j].y > p.y && p.x < ((pts[j].x - pts[i].x) * (p.y - pts[i].y)) / (pts[j].y - pts[i].y) + pts[i].x) inside = !inside;
  }
  return inside;
}

/** The top-most annotation under an image point; `tol` is the pick distance in image pixels. */
export function hitTest(list: readonly Annotation[], p: Pt, tol: number): Annotation | null {
  for (let i = list.length - 1; i >= 0; i--) {
    const a = list[i];
    const b = boxOf(a);
    if (p.x < b.x0 - tol * 8 || p.x > b.x1 + tol * 8 || p.y < b.y0 - tol * 8 || p.y > b.y1 + tol * 8) continue;
    const pts = a.points;
    switch (a.tool) {
      case 'rect':
        if (p.x >= b.x0 - tol && p.x <= b.x1 + tol && p.y >= b.y0 - tol && p.y <= b.y1 + tol) return a;
        break;
      case 'ellipse': {
        const rx = (b.x1 - b.x0) / 2 + tol, ry = (b.y1 - b.y0) / 2 + tol;
        const dx = p.x - (b.x0 + b.x1) / 2, dy = p.y - (b.y0 + b.y1) / 2;
        if ((dx * dx) / (rx * rx) + (dy * dy) / (ry * ry) <= 1) return a;
        break;
      }
      case 'polygon':
        if (inPolygon(p, pts)) return a;
        for (let k = 0; k < pts.length; k++) if (segDist(p, pts[k], pts[(k + 1) % pts.length]) <= tol) return a;
        break;
      case 'text':
        if (Math.hypot(p.x - pts[0].x, p.y - pts[0].y) <= tol * 4) return a;
        break;
      default:
        for (let k = 1; k < pts.length; k++) if (segDist(p, pts[k - 1], pts[k]) <= tol) return a;
    }
  }
  return null;
}

/** a ∘ b: the affine map that applies b, then a (canvas order [a, b, c, d, e, f]). */
export function compose(a: M, b: M): M {
  return [a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1], a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3], a[0] * b[4] + a[2] * b[5] + a[4], a[1] * b[4] + a[3] * b[5] + a[5]];
}

export function invert(m: M): M {
  const det = m[0] * m[3] - m[1] * m[2] || 1;
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det, (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
}

/** Shapes painted once into a bitmap larger than the view, moved with the view until it settles. */
export interface PaintCache {
  canvas: HTMLCanvasElement;
  /** Image → cache-canvas CSS pixels. */
  m: M;
  list: readonly Annotation[];
  skipId: number | null;
  w: number;
  h: number;
}

/** How far the cache reaches past each side of the view, as a fraction of its size. */
export const CACHE_MARGIN = 0.5;

/** Paints the shapes into a (new or reused) cache for view matrix m of a w×h view. */
export function paintCache(prev: PaintCache | null, list: readonly Annotation[], m: M, w: number, h: number, dpr: number, skipId: number | null): PaintCache {
  const canvas = prev?.canvas ?? document.createElement('canvas');
  const cw = w * (1 + 2 * CACHE_MARGIN), ch = h * (1 + 2 * CACHE_MARGIN);
  if (canvas.width !== Math.round(cw * dpr) || canvas.height !== Math.round(ch * dpr)) {
    canvas.width = Math.round(cw * dpr);
    canvas.height = Math.round(ch * dpr);
  }
  const cm: M = [m[0], m[1], m[2], m[3], m[4] + w * CACHE_MARGIN, m[5] + h * CACHE_MARGIN];
  const ctx = canvas.getContext('2d');
  if (ctx) paint(ctx, list, cm, cw, ch, dpr, skipId);
  return { canvas, m: cm, list, skipId, w, h };
}

/**
 * Draws a cache under view matrix m, or returns false when it no longer fits: other shapes,
 * another view size, or a zoom that changed by more than `maxScale` since it was painted.
 */
export function drawCache(ctx: CanvasRenderingContext2D, c: PaintCache | null, list: readonly Annotation[], m: M, w: number, h: number, dpr: number, skipId: number | null, maxScale = 1.6): boolean {
  if (!c || c.list !== list || c.skipId !== skipId || c.w !== w || c.h !== h) return false;
  const r = compose(m, invert(c.m));
  const s = Math.hypot(r[0], r[1]);
  if (s > maxScale || s < 1 / maxScale) return false;
  // The whole view must lie inside the cached area.
  const back = invert(r);
  const cw = w * (1 + 2 * CACHE_MARGIN), ch = h * (1 + 2 * CACHE_MARGIN);
  for (const [x, y] of [[0, 0], [w, 0], [0, h], [w, h]]) {
    const cx = back[0] * x + back[2] * y + back[4], cy = back[1] * x + back[3] * y + back[5];
    if (cx < 0 || cy < 0 || cx > cw || cy > ch) return false;
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.setTransform(dpr * r[0], dpr * r[1], dpr * r[2], dpr * r[3], dpr * r[4], dpr * r[5]);
  ctx.drawImage(c.canvas, 0, 0, w * (1 + 2 * CACHE_MARGIN), h * (1 + 2 * CACHE_MARGIN));
  return true;
}
