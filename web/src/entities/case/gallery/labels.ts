// The annotation labels of a gallery image (spec 1 §3 Annotation label):
// the model, its serialisation as the server keeps it, the shapes each
// tool draws and hit-testing for selection. Coordinates are the image's pixels.

export const TOOLS = ['font', 'line', 'arrow', 'bilateral', 'flag', 'star', 'ellipse', 'rect', 'curve'] as const;
export type Tool = (typeof TOOLS)[number];

/** The default stroke colour and the palette the label form offers. */
export const STROKE_DEFAULT = '#027AFF';
export const PALETTE = ['#FF6261', '#E8C141', '#35D9D3', '#3795FE', '#B352BE'] as const;
export const STROKES = [STROKE_DEFAULT, ...PALETTE] as const;
/** How opaque a fill is drawn (the report draws the same). */
export const FILL_ALPHA = 0.3;
export const MAX_LABELS = 200;
export const MAX_DESCRIPTION = 200;

export interface Label {
  id: number;
  tool: Tool;
  points: number[];
  strokeStyle: string;
  fillStyle: string;
  lineWidth: number;
  description: string;
  fontSize: number;
  angle: number;
}

/** What the label form edits. */
export interface LabelForm {
  description: string;
  strokeStyle: string;
  fillStyle: string;
  lineWidth: number;
  fontSize: number;
}

export const defaultForm: LabelForm = { description: '', strokeStyle: STROKE_DEFAULT, fillStyle: '', lineWidth: 2, fontSize: 14 };

/** A new label's id: the largest existing id plus 1, at least 2. */
export function nextId(labels: readonly Label[]): number {
  return Math.max(1, ...labels.map((l) => l.id)) + 1;
}

/** Whether a tool is drawn by dragging two corners (every tool but font and curve). */
export function isTwoPoint(tool: Tool): boolean {
  return tool !== 'font' && tool !== 'curve';
}

/** Whether a shape has been drawn far enough to keep. */
export function isDrawn(tool: Tool, points: readonly number[]): boolean {
  if (tool === 'font') return points.length === 2;
  if (tool === 'curve') return points.length >= 4;
  return points.length === 4 && Math.hypot(points[2] - points[0], points[3] - points[1]) >= 3;
}

/** Keeps points inside a w×h image. */
export function clampPoints(points: readonly number[], w: number, h: number): number[] {
  return points.map((v, i) => Math.round(Math.min(Math.max(v, 0), i % 2 === 0 ? w : h) * 10) / 10);
}

/** Builds a label from a drawn shape and the form. */
export function makeLabel(labels: readonly Label[], tool: Tool, points: readonly number[], form: LabelForm): Label {
  return { id: nextId(labels), tool, points: [...points], ...form, angle: 0 };
}

function pointsFit(tool: Tool, p: readonly number[]): boolean {
  if (tool === 'font') return p.length === 2;
  if (tool === 'curve') return p.length >= 4 && p.length % 2 === 0 && p.length <= 4000;
  return p.length === 4;
}

function colourOk(c: string, empty: boolean): boolean {
  if (c === '') return empty;
  return STROKES.some((p) => p.toLowerCase() === c.toLowerCase());
}

/** The reason a label would be refused by the server, or null (same rules as internal/gallery). */
export function labelProblem(l: Label, w: number, h: number): string | null {
  if (!Number.isInteger(l.id) || l.id < 2) return 'id';
  if (!(TOOLS as readonly string[]).includes(l.tool)) return 'tool';
  if (!pointsFit(l.tool, l.points)) return 'points';
  for (let i = 0; i + 1 < l.points.length; i += 2) {
    const x = l.points[i], y = l.points[i + 1];
    if (!(x >= 0 && y >= 0 && x <= w && y <= h)) return 'outside';
  }
  if (!colourOk(l.strokeStyle, false) || !colourOk(l.fillStyle, true)) return 'colour';
  if (l.lineWidth < 1 || l.lineWidth > 50 || l.fontSize < 8 || l.fontSize > 200) return 'size';
  if ([...l.description].length > MAX_DESCRIPTION) return 'description';
  if (l.tool === 'font' && l.description.trim() === '') return 'text';
  return null;
}

/** Reads labels as the server returns them, dropping anything malformed. */
export function parseLabels(raw: unknown): Label[] {
  if (!Array.isArray(raw)) return [];
  const out: Label[] = [];
  for (const r of raw) {
    if (typeof r !== 'object' || r === null) continue;
    const o = r as Record<string, unknown>;
    if (typeof o.id !== 'number' || typeof o.tool !== 'string' || !(TOOLS as readonly string[]).includes(o.tool) || !Array.isArray(o.points)) continue;
    if (!o.points.every((v) => typeof v === 'number' && Number.isFinite(v))) continue;
    out.push({
      id: o.id,
      tool: o.tool as Tool,
      points: o.points as number[],
      strokeStyle: typeof o.strokeStyle === 'string' && o.strokeStyle ? o.strokeStyle : STROKE_DEFAULT,
      fillStyle: typeof o.fillStyle === 'string' ? o.fillStyle : '',
      lineWidth: typeof o.lineWidth === 'number' ? o.lineWidth : 2,
      description: typeof o.description === 'string' ? o.description : '',
      fontSize: typeof o.fontSize === 'number' ? o.fontSize : 14,
      angle: typeof o.angle === 'number' ? o.angle : 0,
    });
  }
  return out;
}

/** Labels as the server stores them (plain JSON, fields in the spec's names). */
export function serializeLabels(labels: readonly Label[]): Label[] {
  return labels.map((l) => ({
    id: l.id, tool: l.tool, points: [...l.points], strokeStyle: l.strokeStyle, fillStyle: l.fillStyle,
    lineWidth: l.lineWidth, description: l.description, fontSize: l.fontSize, angle: l.angle,
  }));
}

type P = [number, number];

/** A five-pointed star of outer radius r about (cx, cy), first point up, inner radius 0.4 r. */
export function starPoints(cx: number, cy: number, r: number): P[] {
  return Array.from({ length: 10 }, (_, i) => {
    const rr = i % 2 ? r * 0.4 : r;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    return [cx + rr * Math.cos(a), cy + rr * Math.sin(a)] as P;
  });
}

/** A flag planted at (x1, y1), pole to (x1, y2), pennant to x2: foot, top, tip, pennant foot. */
export function flagPoints(x1: number, y1: number, x2: number, y2: number): P[] {
  const h = y1 - y2;
  return [[x1, y1], [x1, y2], [x2, y2 + h / 4], [x1, y2 + h / 2]];
}

function segDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay;
  const len = dx * dx + dy * dy;
  const t = len ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len)) : 0;
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function polyDist(px: number, py: number, pts: P[], closed: boolean): number {
  let d = Infinity;
  const n = closed ? pts.length : pts.length - 1;
  for (let i = 0; i < n; i++) {
    const a = pts[i], b = pts[(i + 1) % pts.length];
    d = Math.min(d, segDist(px, py, a[0], a[1], b[0], b[1]));
  }
  return d;
}

/** The outline a label is hit-tested (and drawn) along. */
export function outline(l: Label): { pts: P[]; closed: boolean } {
  const p = l.points;
  switch (l.tool) {
    case 'font':
      return { pts: [[p[0], p[1]]], closed: false };
    case 'curve': {
      const pts: P[] = [];
      for (let i = 0; i + 1 < p.length; i += 2) pts.push([p[i], p[i + 1]]);
      return { pts, closed: false };
    }
    case 'rect':
      return { pts: [[p[0], p[1]], [p[2], p[1]], [p[2], p[3]], [p[0], p[3]]], closed: true };
    case 'ellipse': {
      const cx = (p[0] + p[2]) / 2, cy = (p[1] + p[3]) / 2, rx = Math.abs(p[2] - p[0]) / 2, ry = Math.abs(p[3] - p[1]) / 2;
      return { pts: Array.from({ length: 72 }, (_, i) => [cx + rx * Math.cos((i * Math.PI) / 36), cy + ry * Math.sin((i * Math.PI) / 36)] as P), closed: true };
    }
    case 'star':
      return { pts: starPoints(p[0], p[1], Math.hypot(p[2] - p[0], p[3] - p[1])), closed: true };
    case 'flag':
      return { pts: flagPoints(p[0], p[1], p[2], p[3]), closed: false };
    default:
      return { pts: [[p[0], p[1]], [p[2], p[3]]], closed: false };
  }
}

/** The topmost label within tolerance of (x, y), or null. A text note is hit within its box. */
export function hitTest(labels: readonly Label[], x: number, y: number, tolerance: number): Label | null {
  for (let i = labels.length - 1; i >= 0; i--) {
    const l = labels[i];
    if (l.tool === 'font') {
      const w = Math.max(1, [...l.description].length) * l.fontSize * 0.7;
      if (x >= l.points[0] - tolerance && x <= l.points[0] + w + tolerance && y >= l.points[1] - tolerance && y <= l.points[1] + l.fontSize * 1.3 + tolerance) return l;
      continue;
    }
    const { pts, closed } = outline(l);
    if (polyDist(x, y, pts, closed) <= tolerance + l.lineWidth / 2) return l;
  }
  return null;
}

/** The crop rectangle an editor starts with: central, offset a quarter, half the size. */
export function initialCrop(w: number, h: number) {
  return { x: Math.round(w / 4), y: Math.round(h / 4), w: Math.round(w / 2), h: Math.round(h / 2) };
}

/** The CSS filter the process form previews and exports with. */
export function processFilter(f: { brightness: number; saturate: number; contrast: number }): string {
  return `brightness(${f.brightness}%) saturate(${f.saturate}%) contrast(${f.contrast}%)`;
}

/** The box a label's points span (a text note: its anchor). */
export function labelBox(l: Label): { x: number; y: number; w: number; h: number } {
  const xs = l.points.filter((_, i) => i % 2 === 0), ys = l.points.filter((_, i) => i % 2 === 1);
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/** The points of a shape placed with the keyboard: centred on a w×h image, a quarter of its size. */
export function placeAtCentre(tool: Tool, w: number, h: number): number[] {
  const cx = w / 2, cy = h / 2, dx = Math.max(2, w / 8), dy = Math.max(2, h / 8);
  let p: number[];
  switch (tool) {
    case 'font':
      p = [cx, cy];
      break;
    case 'star':
      p = [cx, cy, cx, cy - Math.min(dx, dy)];
      break;
    case 'flag':
      p = [cx, cy + dy, cx + dx, cy - dy];
      break;
    case 'line':
    case 'arrow':
    case 'bilateral':
      p = [cx - dx, cy, cx + dx, cy];
      break;
    case 'curve':
      p = [cx - dx, cy, cx - dx / 2, cy - dy / 2, cx, cy, cx + dx / 2, cy + dy / 2, cx + dx, cy];
      break;
    default:
      p = [cx - dx, cy - dy, cx + dx, cy + dy];
  }
  return clampPoints(p, w, h);
}

/** A label moved by (dx, dy) image pixels, as far as it stays inside the w×h image. */
export function moveLabel(l: Label, dx: number, dy: number, w: number, h: number): Label {
  const b = labelBox(l);
  const mx = Math.min(Math.max(dx, -b.x), w - b.x - b.w);
  const my = Math.min(Math.max(dy, -b.y), h - b.y - b.h);
  return { ...l, points: clampPoints(l.points.map((v, i) => v + (i % 2 === 0 ? mx : my)), w, h) };
}

/**
 * A label made larger or smaller by (dx, dy) image pixels, inside the w×h image: a two-point shape moves its
 * second point, a curve is stretched from its box's corner, a text note's font grows or shrinks.
 */
export function resizeLabel(l: Label, dx: number, dy: number, w: number, h: number): Label {
  if (l.tool === 'font') {
    const by = Math.sign(dx || dy) * Math.max(1, Math.round(Math.abs(dx || dy) / 4));
    return { ...l, fontSize: Math.min(200, Math.max(8, l.fontSize + by)) };
  }
  if (l.tool === 'curve') {
    const b = labelBox(l);
    const sx = b.w > 0 ? Math.max(1, b.w + dx) / b.w : 1, sy = b.h > 0 ? Math.max(1, b.h + dy) / b.h : 1;
    return { ...l, points: clampPoints(l.points.map((v, i) => (i % 2 === 0 ? b.x + (v - b.x) * sx : b.y + (v - b.y) * sy)), w, h) };
  }
  const p = [...l.points];
  p[2] += dx;
  p[3] += dy;
  // Never smaller than 3 pixels (a shape the mouse would not keep).
  if (Math.hypot(p[2] - p[0], p[3] - p[1]) < 3) return l;
  return { ...l, points: clampPoints(p, w, h) };
}
