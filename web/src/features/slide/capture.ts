// Screenshot of the current view: the tile canvas with the image adjustments and
// the annotation overlay, as a JPEG (quality = compression ratio / 100, spec 1 §9).
import type { Viewer } from './osd';

function svgImage(svg: SVGSVGElement, w: number, h: number): Promise<HTMLImageElement | null> {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(w));
  clone.setAttribute('height', String(h));
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(clone)], { type: 'image/svg+xml' }));
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => resolve(null);
    img.src = url;
  }).finally(() => URL.revokeObjectURL(url)) as Promise<HTMLImageElement | null>;
}

export async function captureView(viewer: Viewer, filter: string, compressionRatio: number, container?: HTMLElement | null): Promise<Blob> {
  const overlay = container?.querySelector<SVGSVGElement>('[data-testid=annotation-layer]');
  const shapes = container?.querySelector<HTMLCanvasElement>('[data-testid=annotation-canvas]');
  const src = viewer.drawer.canvas as HTMLCanvasElement;
  const out = document.createElement('canvas');
  out.width = src.width;
  out.height = src.height;
  const ctx = out.getContext('2d')!;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, out.width, out.height);
  // url(#…) filters (gamma) do not apply to a 2D context; the CSS ones do.
  ctx.filter = filter.replace(/url\([^)]*\)/g, '').trim() || 'none';
  ctx.drawImage(src, 0, 0);
  ctx.filter = 'none';
  if (shapes && shapes.width) ctx.drawImage(shapes, 0, 0, out.width, out.height);
  if (overlay) {
    const r = overlay.getBoundingClientRect();
    const img = await svgImage(overlay, r.width, r.height);
    if (img) ctx.drawImage(img, 0, 0, out.width, out.height);
  }
  const q = Math.min(100, Math.max(1, compressionRatio)) / 100;
  return new Promise((resolve, reject) => out.toBlob((b) => (b ? resolve(b) : reject(new Error('capture failed'))), 'image/jpeg', q));
}
