// SVG overlay of annotations and measurements. Shapes live in image pixel
// coordinates inside one group whose transform follows the viewport every frame
// (zoom, pan, rotation) without React re-rendering; strokes keep their screen width.
// Labels, arrowheads and text are undone from scale and rotation through CSS vars.
import OpenSeadragon from 'openseadragon';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type PointerEvent as RPointerEvent } from 'react';
import type { Annotation, Tool } from './annotations';
import { formatArea, formatLength, polygonArea, polylineLength, rectPoints, type Pt } from './geometry';
import { imageMatrix, toImage, type Viewer } from './osd';
import { CACHE_MARGIN, compose, drawCache, hitTest, invert, paint, paintCache, type PaintCache } from './paint';

/** From this many shapes on, the view moves a bitmap of them and repaints it when it rests. */
const CACHE_FROM = 300;
const SETTLE_MS = 120;

export interface ActiveTool {
  tool: Tool;
  measure: boolean;
}
export interface Draft {
  tool: Tool;
  measure: boolean;
  points: Pt[];
}

interface Props {
  viewer: Viewer;
  annotations: Annotation[];
  /** Others' labels: drawn, never selected or edited. */
  readonly?: Annotation[];
  selectedId: number | null;
  onSelect: (id: number | null) => void;
  active: ActiveTool | null;
  color: string;
  lineWidth: number;
  mpp: number;
  onFinish: (d: Draft) => void;
  hidden?: boolean;
}

/** The measurement text of a shape: length of lines, area of closed shapes. */
export function measureText(tool: Tool, pts: Pt[], mpp: number): string | null {
  if (pts.length < 2) return null;
  switch (tool) {
    case 'line':
    case 'arrow':
    case 'freehand':
      return formatLength(polylineLength(pts), mpp).text;
    case 'rect':
      return formatArea(polygonArea(rectPoints(pts[0], pts[1])), mpp).text;
    case 'ellipse':
      return formatArea((Math.PI * Math.abs(pts[1].x - pts[0].x) * Math.abs(pts[1].y - pts[0].y)) / 4, mpp).text;
    case 'polygon':
      return pts.length >= 3 ? formatArea(polygonArea(pts), mpp).text : formatLength(polylineLength(pts), mpp).text;
    default:
      return null;
  }
}

const NONE: Annotation[] = [];

const ptsAttr = (pts: Pt[]) => pts.map((p) => `${p.x},${p.y}`).join(' ');

function Shape({ a, selected }: { a: Pick<Annotation, 'tool' | 'points' | 'color' | 'lineWidth'> & { id?: number }; selected?: boolean }) {
  const common = {
    stroke: a.color,
    strokeWidth: selected ? a.lineWidth + 1.5 : a.lineWidth,
    fill: selected ? a.color : 'none',
    fillOpacity: selected ? 0.12 : undefined,
    vectorEffect: 'non-scaling-stroke' as const,
    'data-id': a.id,
  };
  const p = a.points;
  switch (a.tool) {
    case 'rect':
      return p.length < 2 ? null : <rect x={Math.min(p[0].x, p[1].x)} y={Math.min(p[0].y, p[1].y)} width={Math.abs(p[1].x - p[0].x)} height={Math.abs(p[1].y - p[0].y)} {...common} />;
    case 'ellipse':
      return p.length < 2 ? null : <ellipse cx={(p[0].x + p[1].x) / 2} cy={(p[0].y + p[1].y) / 2} rx={Math.abs(p[1].x - p[0].x) / 2} ry={Math.abs(p[1].y - p[0].y) / 2} {...common} />;
    case 'polygon':
      return <polygon points={ptsAttr(p)} {...common} strokeLinejoin="round" />;
    case 'freehand':
      return <polyline points={ptsAttr(p)} {...common} fill="none" strokeLinejoin="round" strokeLinecap="round" />;
    case 'arrow':
    case 'line':
      return p.length < 2 ? null : <line x1={p[0].x} y1={p[0].y} x2={p[1].x} y2={p[1].y} {...common} strokeLinecap="round" />;
    default:
      return null;
  }
}

const Shapes = memo(function Shapes({ list, selectedId }: { list: Annotation[]; selectedId: number | null }) {
  return (
    <>
      {list.map((a) => (a.tool === 'text' || a.id !== selectedId ? null : <Shape key={a.id} a={a} selected />))}
    </>
  );
});

const UNDO = { transform: 'rotate(var(--unrot)) scale(var(--inv))' };

function Arrowhead({ a }: { a: Pick<Annotation, 'points' | 'color' | 'lineWidth'> }) {
  const [p0, p1] = a.points;
  if (!p1) return null;
  const ang = (Math.atan2(p1.y - p0.y, p1.x - p0.x) * 180) / Math.PI;
  const s = 4 + a.lineWidth * 2;
  return (
    <g transform={`translate(${p1.x} ${p1.y}) rotate(${ang})`}>
      <path d={`M0 0 L${-s * 1.6} ${-s * 0.7} L${-s * 1.6} ${s * 0.7} Z`} fill={a.color} style={{ transform: 'scale(var(--inv))' }} />
    </g>
  );
}

function Label({ at, text, color, size = 13, boxed = true }: { at: Pt; text: string; color: string; size?: number; boxed?: boolean }) {
  const w = text.length * size * 0.6 + 10;
  return (
    <g transform={`translate(${at.x} ${at.y})`}>
      <g style={UNDO}>
        {boxed && <rect x={8} y={-size - 6} width={w} height={size + 8} rx={3} fill="rgba(17,24,39,0.78)" />}
        <text x={boxed ? 13 : 0} y={boxed ? -6 : 0} fontSize={size} fill={boxed ? '#fff' : color} style={{ fontFamily: 'system-ui, sans-serif', paintOrder: 'stroke', stroke: boxed ? 'none' : 'rgba(255,255,255,0.85)', strokeWidth: boxed ? 0 : 3 }}>
          {text}
        </text>
      </g>
    </g>
  );
}

const Labels = memo(function Labels({ list, mpp, selectedId }: { list: Annotation[]; mpp: number; selectedId: number | null }) {
  return (
    <>
      {list.map((a) => {
        if (a.tool === 'arrow' && a.id === selectedId && !a.measure) return <Arrowhead key={a.id} a={a} />;
        if (a.tool === 'text')
          return (
            <g key={a.id} data-id={a.id}>
              <Label at={a.points[0]} text={a.description || '…'} color={a.color} size={a.fontSize ?? 16} boxed={false} />
              {a.id === selectedId && <circle cx={a.points[0].x} cy={a.points[0].y} r={4} fill={a.color} style={{ transform: 'scale(var(--inv))', transformBox: 'fill-box', transformOrigin: 'center' }} />}
            </g>
          );
        if (a.measure) {
          const text = measureText(a.tool, a.points, mpp);
          return text ? <Label key={a.id} at={a.points[a.points.length - 1]} text={text} color={a.color} /> : null;
        }
        return null;
      })}
    </>
  );
});

export function AnnotationLayer({ viewer, annotations, readonly = NONE, selectedId, onSelect, active, color, lineWidth, mpp, onFinish, hidden }: Props) {
  const svg = useRef<SVGSVGElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const all = useMemo(() => (readonly.length ? [...readonly, ...annotations] : annotations), [readonly, annotations]);
  const paintState = useRef({ annotations, all, selectedId, hidden });
  paintState.current = { annotations, all, selectedId, hidden };
  const shapes = useRef<SVGGElement>(null);
  const labels = useRef<SVGGElement>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [cursor, setCursor] = useState<Pt | null>(null);
  const drawing = useRef(false);
  const repaint = useRef<() => void>(() => undefined);
  const cache = useRef<PaintCache | null>(null);
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(settle.current), []);

  // Follow the viewport every frame: one transform for thousands of shapes.
  useLayoutEffect(() => {
    const update = () => {
      const m = imageMatrix(viewer);
      if (!m) return;
      const c = canvas.current;
      const ctx = c?.getContext('2d');
      if (c && ctx) {
        const dpr = window.devicePixelRatio || 1;
        const w = c.clientWidth, h = c.clientHeight;
        if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
          c.width = Math.round(w * dpr);
          c.height = Math.round(h * dpr);
        }
        const st = paintState.current;
        if (st.hidden) ctx.clearRect(0, 0, c.width, c.height);
        else if (st.all.length < CACHE_FROM) paint(ctx, st.all, m, w, h, dpr, st.selectedId);
        else {
          // Many shapes: move a bitmap of them with the view, repaint it once the view rests.
          if (!drawCache(ctx, cache.current, st.all, m, w, h, dpr, st.selectedId)) {
            cache.current = paintCache(cache.current, st.all, m, w, h, dpr, st.selectedId);
            drawCache(ctx, cache.current, st.all, m, w, h, dpr, st.selectedId);
          }
          clearTimeout(settle.current);
          settle.current = setTimeout(() => {
            const m2 = imageMatrix(viewer);
            const s2 = paintState.current;
            const cur = cache.current;
            if (!m2 || s2.hidden || s2.all.length < CACHE_FROM || !cur) return;
            const r = compose(m2, invert(cur.m));
            const still = Math.abs(r[0] - 1) < 1e-6 && Math.abs(r[1]) < 1e-6 && Math.abs(r[2]) < 1e-6 && Math.abs(r[3] - 1) < 1e-6;
            if (still && Math.abs(r[4] + w * CACHE_MARGIN) < 0.5 && Math.abs(r[5] + h * CACHE_MARGIN) < 0.5) return;
            cache.current = paintCache(cur, s2.all, m2, w, h, dpr, s2.selectedId);
            drawCache(ctx, cache.current, s2.all, m2, w, h, dpr, s2.selectedId);
          }, SETTLE_MS);
        }
      }
      const t = `matrix(${m.join(' ')})`;
      shapes.current?.setAttribute('transform', t);
      labels.current?.setAttribute('transform', t);
      const s = Math.hypot(m[0], m[1]) || 1;
      const rot = (Math.atan2(m[1], m[0]) * 180) / Math.PI;
      labels.current?.style.setProperty('--inv', String(1 / s));
      labels.current?.style.setProperty('--unrot', `${-rot}deg`);
    };
    update();
    repaint.current = update;
    viewer.addHandler('update-viewport', update);
    viewer.addHandler('resize', update);
    return () => {
      viewer.removeHandler('update-viewport', update);
      viewer.removeHandler('resize', update);
    };
  }, [viewer]);
  useEffect(() => repaint.current(), [all, selectedId, hidden]);

  // Selection by click on the slide (shapes are painted on a canvas, not DOM nodes).
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  useEffect(() => {
    if (active) return;
    const onClick = (e: OpenSeadragon.CanvasClickEvent) => {
      if (!e.quick) return;
      const m = imageMatrix(viewer);
      const s = m ? Math.hypot(m[0], m[1]) : 1;
      const p = toImage(viewer, e.position.x, e.position.y);
      const hit = hitTest(paintState.current.annotations, p, 6 / s);
      onSelectRef.current(hit ? hit.id : null);
    };
    viewer.addHandler('canvas-click', onClick);
    return () => viewer.removeHandler('canvas-click', onClick);
  }, [viewer, active]);

  useEffect(() => {
    setDraft(null);
    drawing.current = false;
  }, [active]);

  const finish = useCallback(
    (d: Draft | null) => {
      drawing.current = false;
      setDraft(null);
      if (!d) return;
      const min = d.tool === 'text' ? 1 : d.tool === 'polygon' ? 3 : 2;
      if (d.points.length < min) return;
      onFinish(d);
    },
    [onFinish],
  );

  // Esc cancels, Enter closes a polygon, Backspace drops its last vertex.
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Enter' && draft?.tool === 'polygon') finish(draft);
      else if (e.key === 'Backspace' && draft?.tool === 'polygon') setDraft({ ...draft, points: draft.points.slice(0, -1) });
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active, draft, finish]);

  const at = (e: RPointerEvent | React.WheelEvent | React.MouseEvent) => {
    const r = svg.current!.getBoundingClientRect();
    return { ex: e.clientX - r.left, ey: e.clientY - r.top };
  };
  const img = (e: RPointerEvent | React.MouseEvent) => {
    const { ex, ey } = at(e);
    return toImage(viewer, ex, ey);
  };
  const screenDist = (a: Pt, b: Pt) => {
    const m = imageMatrix(viewer);
    const s = m ? Math.hypot(m[0], m[1]) : 1;
    return Math.hypot(a.x - b.x, a.y - b.y) * s;
  };

  const onPointerDown = (e: RPointerEvent<SVGSVGElement>) => {
    if (!active || e.button !== 0) return;
    e.preventDefault();
    const p = img(e);
    const { tool, measure } = active;
    if (tool === 'text') return finish({ tool, measure, points: [p] });
    if (tool === 'polygon') {
      if (draft && draft.points.length >= 3 && screenDist(draft.points[0], p) < 10) return finish(draft);
      setDraft((d) => ({ tool, measure, points: [...(d?.points ?? []), p] }));
      return;
    }
    svg.current?.setPointerCapture(e.pointerId);
    drawing.current = true;
    setDraft({ tool, measure, points: tool === 'freehand' ? [p] : [p, p] });
  };
  const onPointerMove = (e: RPointerEvent<SVGSVGElement>) => {
    if (!active) return;
    const p = img(e);
    if (active.tool === 'polygon') return setCursor(p);
    if (!drawing.current) return;
    setDraft((d) => {
      if (!d) return d;
      if (d.tool === 'freehand') return screenDist(d.points[d.points.length - 1], p) > 3 ? { ...d, points: [...d.points, p] } : d;
      return { ...d, points: [d.points[0], p] };
    });
  };
  const onPointerUp = (e: RPointerEvent<SVGSVGElement>) => {
    if (!active || !drawing.current) return;
    svg.current?.releasePointerCapture(e.pointerId);
    const d = draft;
    if (d && d.tool !== 'freehand' && d.points.length === 2 && screenDist(d.points[0], d.points[1]) < 4) return finish(null);
    finish(d);
  };
  const onDoubleClick = () => {
    if (draft?.tool === 'polygon') finish({ ...draft, points: draft.points.slice(0, -1).length >= 3 ? draft.points.slice(0, -1) : draft.points });
  };
  // Keep wheel zoom while a tool is active.
  const onWheel = (e: React.WheelEvent<SVGSVGElement>) => {
    if (!active) return;
    const { ex, ey } = at(e);
    const pt = viewer.viewport.pointFromPixel(new OpenSeadragon.Point(ex, ey), true);
    viewer.viewport.zoomBy(e.deltaY < 0 ? 1.4 : 1 / 1.4, pt);
    viewer.viewport.applyConstraints();
  };

  const shown = draft && draft.tool === 'polygon' && cursor ? { ...draft, points: [...draft.points, cursor] } : draft;
  const draftText = shown && (shown.measure || shown.tool !== 'text') ? measureText(shown.tool, shown.points, mpp) : null;

  return (
    <>
    <canvas ref={canvas} data-testid="annotation-canvas" style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', pointerEvents: 'none', visibility: hidden ? 'hidden' : undefined }} />
    <svg
      ref={svg}
      data-testid="annotation-layer"
      style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', overflow: 'hidden', pointerEvents: active ? 'all' : 'none', cursor: active ? 'crosshair' : undefined, touchAction: 'none', visibility: hidden ? 'hidden' : undefined }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onDoubleClick={onDoubleClick}
      onWheel={onWheel}
    >
      <g ref={shapes} style={{ pointerEvents: 'none' }}>
        <Shapes list={annotations} selectedId={selectedId} />
        {shown && shown.tool !== 'text' && <Shape a={{ ...shown, tool: shown.tool === 'polygon' && shown.points.length < 3 ? 'line' : shown.tool, color, lineWidth }} />}
      </g>
      <g ref={labels} style={{ pointerEvents: 'none' }}>
        {readonly.length > 0 && <Labels list={readonly} mpp={mpp} selectedId={null} />}
        <Labels list={annotations} mpp={mpp} selectedId={selectedId} />
        {shown && shown.tool === 'arrow' && <Arrowhead a={{ ...shown, color, lineWidth }} />}
        {shown && draftText && <Label at={shown.points[shown.points.length - 1]} text={draftText} color={color} />}
      </g>
    </svg>
    </>
  );
}
