// Draws labels on a 2D canvas whose transform maps image pixels to the screen.
import { FILL_ALPHA, outline, type Label } from './labels';

function withAlpha(hex: string, a: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

function arrowHead(ctx: CanvasRenderingContext2D, x1: number, y1: number, x2: number, y2: number, lw: number) {
  const a = Math.atan2(y2 - y1, x2 - x1);
  const size = Math.max(10, lw * 4);
  ctx.beginPath();
  ctx.moveTo(x2, y2);
  ctx.lineTo(x2 - size * Math.cos(a - Math.PI / 7), y2 - size * Math.sin(a - Math.PI / 7));
  ctx.lineTo(x2 - size * Math.cos(a + Math.PI / 7), y2 - size * Math.sin(a + Math.PI / 7));
  ctx.closePath();
  ctx.fill();
}

/** Draws one label; selected ones get a dashed highlight. */
export function drawLabel(ctx: CanvasRenderingContext2D, l: Label, selected = false) {
  ctx.save();
  ctx.strokeStyle = l.strokeStyle;
  ctx.fillStyle = l.strokeStyle;
  ctx.lineWidth = l.lineWidth;
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  const p = l.points;
  if (l.tool === 'font') {
    ctx.font = `${l.fontSize}px sans-serif`;
    ctx.textBaseline = 'top';
    l.description.split('\n').forEach((line, i) => ctx.fillText(line, p[0], p[1] + i * l.fontSize * 1.2));
    if (selected) {
      const w = Math.max(...l.description.split('\n').map((s) => ctx.measureText(s).width));
      ctx.setLineDash([4, 3]);
      ctx.lineWidth = 1;
      ctx.strokeRect(p[0] - 2, p[1] - 2, w + 4, l.fontSize * 1.2 * l.description.split('\n').length + 4);
    }
    ctx.restore();
    return;
  }
  const { pts, closed } = outline(l);
  const path = () => {
    ctx.beginPath();
    pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    if (closed) ctx.closePath();
  };
  if (l.tool === 'flag') {
    ctx.beginPath();
    ctx.moveTo(pts[1][0], pts[1][1]);
    ctx.lineTo(pts[2][0], pts[2][1]);
    ctx.lineTo(pts[3][0], pts[3][1]);
    ctx.closePath();
    if (l.fillStyle) {
      ctx.fillStyle = withAlpha(l.fillStyle, FILL_ALPHA);
      ctx.fill();
    }
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(pts[0][0], pts[0][1]);
    ctx.lineTo(pts[1][0], pts[1][1]);
    ctx.stroke();
  } else {
    path();
    if (closed && l.fillStyle) {
      ctx.fillStyle = withAlpha(l.fillStyle, FILL_ALPHA);
      ctx.fill();
    }
    ctx.stroke();
    ctx.fillStyle = l.strokeStyle;
    if (l.tool === 'arrow' || l.tool === 'bilateral') arrowHead(ctx, p[0], p[1], p[2], p[3], l.lineWidth);
    if (l.tool === 'bilateral') arrowHead(ctx, p[2], p[3], p[0], p[1], l.lineWidth);
  }
  if (selected) {
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = Math.max(1, l.lineWidth / 2);
    ctx.strokeStyle = '#1f1f1f';
    path();
    ctx.stroke();
  }
  ctx.restore();
}
