// Annotations on a slide, in full-resolution image pixel coordinates, and their
// GeoJSON form (a FeatureCollection; properties tool, color, lineWidth, description).
import type { Pt } from './geometry';
import { bounds } from './geometry';

export type Tool = 'rect' | 'ellipse' | 'polygon' | 'freehand' | 'arrow' | 'line' | 'text';
export const TOOLS: Tool[] = ['rect', 'ellipse', 'polygon', 'freehand', 'arrow', 'text'];

/** Palette (spec 1 §3) and default stroke. */
export const PALETTE = ['#FF6261', '#E8C141', '#35D9D3', '#3795FE', '#B352BE'];
export const DEFAULT_COLOR = '#027AFF';
export const LINE_WIDTHS = [2, 4, 6, 8, 10];
export const FONT_SIZES = [12, 14, 16, 20, 24];

export interface Annotation {
  id: number;
  tool: Tool;
  /** rect / ellipse: two opposite corners; arrow / line: from, to; text: anchor; others: vertices. */
  points: Pt[];
  color: string;
  lineWidth: number;
  description: string;
  fontSize?: number;
  /** Drawn as a measurement: shows its length or area. */
  measure?: boolean;
}

/** A new id is the largest existing id plus 1, minimum 2 (spec 1 §3). */
export const nextId = (list: readonly Annotation[]) => Math.max(1, ...list.map((a) => a.id)) + 1;

/** Image-space bounds of an annotation (for jump-to and culling). */
export const annotationBounds = (a: Annotation) => bounds(a.points);

const ELLIPSE_STEPS = 64;

function ellipseRing(a: Pt, b: Pt): number[][] {
  const cx = (a.x + b.x) / 2, cy = (a.y + b.y) / 2, rx = Math.abs(b.x - a.x) / 2, ry = Math.abs(b.y - a.y) / 2;
  const ring: number[][] = [];
  for (let i = 0; i < ELLIPSE_STEPS; i++) {
    const t = (i / ELLIPSE_STEPS) * Math.PI * 2;
    ring.push([cx + rx * Math.cos(t), cy + ry * Math.sin(t)]);
  }
  return ring;
}

const close = (ring: number[][]) => [...ring, ring[0]];
const xy = (p: Pt) => [p.x, p.y];

export interface Feature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: number[] } | { type: 'LineString'; coordinates: number[][] } | { type: 'Polygon'; coordinates: number[][][] };
  properties: { id: number; tool: Tool; color: string; lineWidth: number; description: string; fontSize?: number; measure?: boolean };
}
export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
}

export function toGeoJSON(list: readonly Annotation[]): FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: list.map((a) => {
      const { points: p } = a;
      let geometry: Feature['geometry'];
      switch (a.tool) {
        case 'text':
          geometry = { type: 'Point', coordinates: xy(p[0]) };
          break;
        case 'arrow':
        case 'line':
        case 'freehand':
          geometry = { type: 'LineString', coordinates: p.map(xy) };
          break;
        case 'rect':
          geometry = { type: 'Polygon', coordinates: [close([xy(p[0]), [p[1].x, p[0].y], xy(p[1]), [p[0].x, p[1].y]])] };
          break;
        case 'ellipse':
          geometry = { type: 'Polygon', coordinates: [close(ellipseRing(p[0], p[1]))] };
          break;
        default:
          geometry = { type: 'Polygon', coordinates: [close(p.map(xy))] };
      }
      const properties: Feature['properties'] = { id: a.id, tool: a.tool, color: a.color, lineWidth: a.lineWidth, description: a.description };
      if (a.fontSize !== undefined) properties.fontSize = a.fontSize;
      if (a.measure) properties.measure = true;
      return { type: 'Feature', geometry, properties };
    }),
  };
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const toPt = (c: unknown): Pt | null => (Array.isArray(c) && isNum(c[0]) && isNum(c[1]) ? { x: c[0], y: c[1] } : null);
const pts = (cs: unknown): Pt[] | null => {
  if (!Array.isArray(cs)) return null;
  const out = cs.map(toPt);
  return out.every((p): p is Pt => p !== null) ? out : null;
};
const KNOWN: Tool[] = ['rect', 'ellipse', 'polygon', 'freehand', 'arrow', 'line', 'text'];

export class GeoJSONError extends Error {}

/**
 * Reads a FeatureCollection (ours or another tool's: Point, LineString, Polygon and their
 * Multi forms' first part) back into annotations; ids continue after `existing`.
 */
export function fromGeoJSON(input: unknown, existing: readonly Annotation[] = []): Annotation[] {
  const fc = input as { type?: unknown; features?: unknown };
  if (!fc || fc.type !== 'FeatureCollection' || !Array.isArray(fc.features)) throw new GeoJSONError('not a FeatureCollection');
  const out: Annotation[] = [];
  let id = nextId(existing);
  for (const f of fc.features as { geometry?: { type?: string; coordinates?: unknown }; properties?: Record<string, unknown> }[]) {
    const g = f?.geometry;
    if (!g) continue;
    const props = f.properties ?? {};
    let type = g.type;
    let coords = g.coordinates;
    if ((type === 'MultiPolygon' || type === 'MultiLineString' || type === 'MultiPoint') && Array.isArray(coords)) {
      type = type.slice(5);
      coords = coords[0];
    }
    let tool = KNOWN.includes(props.tool as Tool) ? (props.tool as Tool) : null;
    let points: Pt[] | null = null;
    if (type === 'Point') {
      const p = toPt(coords);
      points = p && [p];
      tool = 'text';
    } else if (type === 'LineString') {
      points = pts(coords);
      if (tool !== 'arrow' && tool !== 'line' && tool !== 'freehand') tool = points?.length === 2 ? 'line' : 'freehand';
    } else if (type === 'Polygon' && Array.isArray(coords)) {
      const ring = pts(coords[0]);
      if (ring && ring.length > 1 && ring[0].x === ring[ring.length - 1].x && ring[0].y === ring[ring.length - 1].y) ring.pop();
      if (ring && (tool === 'rect' || tool === 'ellipse')) {
        const b = bounds(ring);
        points = [{ x: b.x, y: b.y }, { x: b.x + b.w, y: b.y + b.h }];
      } else {
        points = ring;
        if (tool !== 'polygon') tool = 'polygon';
      }
    }
    if (!points || points.length === 0 || !tool) continue;
    // A text label is its text: a bare point has nothing to show.
    if (tool === 'text' && (typeof props.description !== 'string' || !props.description.trim())) continue;
    out.push({
      id: id++,
      tool,
      points,
      color: typeof props.color === 'string' && /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(props.color) ? props.color : DEFAULT_COLOR,
      lineWidth: isNum(props.lineWidth) && props.lineWidth >= 1 && props.lineWidth <= 50 ? props.lineWidth : 2,
      description: typeof props.description === 'string' ? props.description.slice(0, 2000) : '',
      ...(isNum(props.fontSize) ? { fontSize: props.fontSize } : {}),
      ...(props.measure === true ? { measure: true } : {}),
    });
  }
  return out;
}

/** Generates n random annotations over a width×height image (for the rendering benchmark). */
export function generateAnnotations(n: number, width: number, height: number, seed = 1): Annotation[] {
  let s = seed;
  const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647);
  const out: Annotation[] = [];
  const tools: Tool[] = ['rect', 'ellipse', 'polygon', 'arrow'];
  for (let i = 0; i < n; i++) {
    const x = rnd() * width, y = rnd() * height, r = 40 + rnd() * 400;
    const tool = tools[i % tools.length];
    const points =
      tool === 'polygon'
        ? Array.from({ length: 6 }, (_, k) => ({ x: x + r * Math.cos((k / 6) * Math.PI * 2), y: y + r * Math.sin((k / 6) * Math.PI * 2) }))
        : [{ x, y }, { x: x + r, y: y + r * 0.7 }];
    out.push({ id: i + 2, tool, points, color: PALETTE[i % PALETTE.length], lineWidth: 2, description: '' });
  }
  return out;
}
