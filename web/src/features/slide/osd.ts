// Helpers around OpenSeadragon: the image → screen affine map, screen → image
// points, magnification, and a hook that re-renders on viewport changes.
import OpenSeadragon from 'openseadragon';
import { useEffect, useState } from 'react';
import { affineFrom, type Pt } from './geometry';

export type Viewer = OpenSeadragon.Viewer;

const item = (v: Viewer) => v.world.getItemAt(0) as OpenSeadragon.TiledImage | undefined;

/** The current image → viewer-element map as matrix(a b c d e f) numbers, or null before open. */
export function imageMatrix(v: Viewer): [number, number, number, number, number, number] | null {
  const ti = item(v);
  if (!ti) return null;
  const f = (x: number, y: number) => v.viewport.pixelFromPoint(ti.imageToViewportCoordinates(x, y, true), true);
  return affineFrom(f(0, 0), f(1, 0), f(0, 1));
}

/** A point in the viewer element (CSS px) as full-resolution image pixels. */
export function toImage(v: Viewer, ex: number, ey: number): Pt {
  const ti = item(v);
  if (!ti) return { x: 0, y: 0 };
  const p = ti.viewerElementToImageCoordinates(new OpenSeadragon.Point(ex, ey));
  return { x: p.x, y: p.y };
}

/** Factor from image zoom (screen px per image px) to viewport zoom. */
export function imageToViewportFactor(v: Viewer): number {
  const ti = item(v);
  return ti ? ti.imageToViewportZoom(1) : 1;
}

/** Screen pixels per full-resolution image pixel right now. */
export function imageZoom(v: Viewer): number {
  return v.viewport.getZoom(true) / imageToViewportFactor(v);
}

/** Fits the viewport on an image-space rectangle (with a margin). */
export function fitImageRect(v: Viewer, r: { x: number; y: number; w: number; h: number }) {
  const ti = item(v);
  if (!ti) return;
  const pad = Math.max(r.w, r.h) * 0.15 + 20;
  const rect = ti.imageToViewportRectangle(r.x - pad, r.y - pad, r.w + pad * 2, r.h + pad * 2);
  v.viewport.fitBoundsWithConstraints(rect);
}

/** A number that changes on every viewport frame (throttled to animation frames). */
export function useViewportTick(v: Viewer | null): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!v) return;
    let raf = 0;
    const on = () => {
      if (!raf) raf = requestAnimationFrame(() => ((raf = 0), setTick((t) => t + 1)));
    };
    v.addHandler('update-viewport', on);
    v.addHandler('resize', on);
    on();
    return () => {
      cancelAnimationFrame(raf);
      v.removeHandler('update-viewport', on);
      v.removeHandler('resize', on);
    };
  }, [v]);
  return tick;
}
