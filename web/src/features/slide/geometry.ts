// Pure geometry of the slide viewer: measurements from image pixels and the
// scan's microns per pixel, magnification ↔ viewport zoom, the scale bar.

export interface Pt {
  x: number;
  y: number;
}

/** Rounds to 2 decimals for display (spec 2 §5: measures show 2 decimals). */
export const round2 = (v: number) => Math.round(v * 100) / 100;

/** Length of a polyline in image pixels. */
export function polylineLength(pts: readonly Pt[]): number {
  let s = 0;
  for (let i = 1; i < pts.length; i++) s += Math.hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
  return s;
}

/** Area of a simple polygon in square image pixels (shoelace formula, always ≥ 0). */
export function polygonArea(pts: readonly Pt[]): number {
  let s = 0;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) s += (pts[j].x + pts[i].x) * (pts[j].y - pts[i].y);
  return Math.abs(s) / 2;
}

/** Perimeter of a closed polygon in image pixels. */
export const polygonPerimeter = (pts: readonly Pt[]) => (pts.length < 2 ? 0 : polylineLength([...pts, pts[0]]));

/** Corners of the axis-aligned (image space) rectangle spanned by two points. */
export const rectPoints = (a: Pt, b: Pt): Pt[] => [a, { x: b.x, y: a.y }, b, { x: a.x, y: b.y }];

export interface Measure {
  value: number;
  unit: string;
  text: string;
}

/** A length in image pixels as µm, or mm from 1,000 µm on; px when the scan has no mpp. */
export function formatLength(px: number, mpp: number): Measure {
  if (!(mpp > 0)) return { value: round2(px), unit: 'px', text: `${round2(px).toFixed(2)} px` };
  const um = px * mpp;
  if (um >= 1000) return { value: round2(um / 1000), unit: 'mm', text: `${(um / 1000).toFixed(2)} mm` };
  return { value: round2(um), unit: 'µm', text: `${um.toFixed(2)} µm` };
}

/** An area in square image pixels as µm², or mm² from 1,000,000 µm² (1 mm²) on. */
export function formatArea(px2: number, mpp: number): Measure {
  if (!(mpp > 0)) return { value: round2(px2), unit: 'px²', text: `${px2.toFixed(2)} px²` };
  const um2 = px2 * mpp * mpp;
  if (um2 >= 1e6) return { value: round2(um2 / 1e6), unit: 'mm²', text: `${(um2 / 1e6).toFixed(2)} mm²` };
  return { value: round2(um2), unit: 'µm²', text: `${um2.toFixed(2)} µm²` };
}

/** The scan objective; when the file does not say, estimated from mpp (0.25 µm/px ≈ 40×), else 40×. */
export function effectiveObjective(objective: number, mpp: number): number {
  if (objective > 0) return objective;
  if (mpp > 0) return Math.max(1, Math.round(10 / mpp));
  return 40;
}

/**
 * Viewport zoom that shows the slide at `magnification` (1×…40×) relative to the scan's
 * `objective`: at the objective's own magnification one image pixel is one screen pixel,
 * so image zoom = magnification / objective; `imageToViewport` is the viewer's factor
 * from image zoom to viewport zoom (OpenSeadragon: image width / container width).
 */
export const zoomForMagnification = (magnification: number, objective: number, imageToViewport: number) =>
  (magnification / objective) * imageToViewport;

/** Inverse of zoomForMagnification: the magnification a viewport zoom shows. */
export const magnificationForZoom = (zoom: number, objective: number, imageToViewport: number) =>
  (zoom / imageToViewport) * objective;

/** Shown magnification: one decimal below 10×, whole numbers above. */
export const formatMagnification = (m: number) => `${m < 10 ? round1(m) : Math.round(m)}×`;
const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * Scale bar: the largest "nice" length (1, 2, 5 × 10ⁿ µm) at most `maxPx` screen pixels
 * long, given the microns per screen pixel; labelled in µm or mm.
 */
export function scaleBar(umPerScreenPx: number, maxPx = 120): { px: number; label: string } | null {
  if (!(umPerScreenPx > 0) || !Number.isFinite(umPerScreenPx)) return null;
  const maxUm = umPerScreenPx * maxPx;
  const pow = Math.pow(10, Math.floor(Math.log10(maxUm)));
  let nice = pow;
  for (const m of [5, 2, 1]) {
    if (m * pow <= maxUm) {
      nice = m * pow;
      break;
    }
  }
  const label = nice >= 1000 ? `${trim(nice / 1000)} mm` : `${trim(nice)} µm`;
  return { px: nice / umPerScreenPx, label };
}
const trim = (v: number) => String(Number(v.toPrecision(6)));

/** Axis-aligned bounds of points, in the same (image) space. */
export function bounds(pts: readonly Pt[]): { x: number; y: number; w: number; h: number } {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const p of pts) {
    if (p.x < x0) x0 = p.x;
    if (p.y < y0) y0 = p.y;
    if (p.x > x1) x1 = p.x;
    if (p.y > y1) y1 = p.y;
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/**
 * The affine map image → screen from three mapped points (origin, +x, +y) as an SVG
 * matrix(a b c d e f); it carries zoom, pan, rotation and flip at once.
 */
export function affineFrom(o: Pt, ex: Pt, ey: Pt): [number, number, number, number, number, number] {
  return [ex.x - o.x, ex.y - o.y, ey.x - o.x, ey.y - o.y, o.x, o.y];
}
