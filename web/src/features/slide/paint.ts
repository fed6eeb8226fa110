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

/**
 * Paints the shapes in one pass: visible shapes are batched by colour and line width
 * into one path each, so 5,000 shapes cost a handful of stroke calls, not 5,000.
 * Returns the number of shapes drawn.
 */
export function paint(ctx: CanvasRenderingContext2D, list: readonly Annotation[], m: M, cssW: number, cssH: number, dpr: number, skipId: number | null): number {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  const s = Math.hypot(m[0], m[1]) || 1;
  const view = visibleImageBox(m, cssW, cssH);
  const margin = 20 / s;
  ctx.setTransform(dpr * m[0], dpr * m[1], dpr * m[2], dpr * m[3], dpr * m[4], dpr * m[5]);
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  // Batches in first-seen order (later batches draw over earlier ones).
  const batches = new Map<string, Annotation[]>();
  let drawn = 0;
  for (const a of list) {
    if (a.tool === 'text' || a.id === skipId) continue;
    const b = boxOf(a);
    if (b.x1 < view.x0 - margin || b.x0 > view.x1 + margin || b.y1 < view.y0 - margin || b.y0 > view.y1 + margin) continue;
    const key = `${a.color}|${a.lineWidth}`;
    let batch = batches.get(key);
    if (!batch) batches.set(key, (batch = []));
    batch.push(a);
    drawn++;
  }
  for (const batch of batches.values()) {
    const { color, lineWidth } = batch[0];
    ctx.beginPath();
    let arrows = false;
    for (const a of batch) {
      const b = boxOf(a);
      const p = a.points;
      if ((b.x1 - b.x0) * s < 1.5 && (b.y1 - b.y0) * s < 1.5) {
        ctx.rect(b.x0, b.y0, 1.5 / s, 1.5 / s);
        continue;
      }
      switch (a.tool) {
        case 'rect':
          ctx.rect(b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0);
          break;
        case 'ellipse': {
          const cx = (b.x0 + b.x1) / 2, rx = (b.x1 - b.x0) / 2;
          ctx.moveTo(cx + rx, (b.y0 + b.y1) / 2);
          ctx.ellipse(cx, (b.y0 + b.y1) / 2, rx, (b.y1 - b.y0) / 2, 0, 0, Math.PI * 2);
          break;
        }
        default:
          ctx.moveTo(p[0].x, p[0].y);
          for (let i = 1; i < p.length; i++) ctx.lineTo(p[i].x, p[i].y);
          if (a.tool === 'polygon') ctx.closePath();
          if (a.tool === 'arrow') arrows = true;
      }
    }
    ctx.strokeStyle = color;
    ctx.lineWidth = lineWidth / s;
    ctx.stroke();
    if (!arrows) continue;
    ctx.beginPath();
    for (const a of batch) {
      const p = a.points;
      if (a.tool !== 'arrow' || p.length < 2) continue;
      const [p0, p1] = p;
      const ang = Math.atan2(p1.y - p0.y, p1.x - p0.x);
      const len = (4 + a.lineWidth * 2) / s;
      ctx.moveTo(p1.x, p1.y);
      ctx.lineTo(p1.x - len * 1.6 * Math.cos(ang) + len * 0.7 * Math.sin(ang), p1.y - len * 1.6 * Math.sin(ang) - len * 0.7 * Math.cos(ang));
      ctx.lineTo(p1.x - len * 1.6 * Math.cos(ang) - len * 0.7 * Math.sin(ang), p1.y - len * 1.6 * Math.sin(ang) + len * 0.7 * Math.cos(ang));
      ctx.closePath();
    }
    ctx.fillStyle = color;
    ctx.fill();
  }
  return drawn;
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
