// Several viewers side by side (split view) moving together: the one under the
// pointer leads; the others take its magnification (scan objective and pixel size
// allowed for), centre and rotation. With none leading (views set from outside,
// as a followed meeting does), none moves the others.
import { useCallback, useEffect, useRef, useState } from 'react';
import { magnificationForZoom, zoomForMagnification } from '../geometry';
import { imageToViewportFactor, type Viewer } from '../osd';

export interface Pane {
  viewer: Viewer;
  objective: number;
}

export function useViewerSync(sync: boolean) {
  const panes = useRef(new Map<number, Pane>());
  const leader = useRef<number | null>(null);
  const applying = useRef(false);
  const [version, setVersion] = useState(0);

  const setPane = useCallback((id: number, p: Pane | null) => {
    if (p) panes.current.set(id, p);
    else panes.current.delete(id);
    setVersion((n) => n + 1);
  }, []);
  const lead = useCallback((id: number | null) => {
    leader.current = id;
  }, []);

  useEffect(() => {
    if (!sync) return;
    const offs: (() => void)[] = [];
    for (const [id, p] of panes.current) {
      const follow = () => {
        if (applying.current || leader.current !== id) return;
        const vp = p.viewer.viewport;
        const mag = magnificationForZoom(vp.getZoom(true), p.objective, imageToViewportFactor(p.viewer));
        const center = vp.getCenter(true);
        const rot = vp.getRotation(true);
        applying.current = true;
        for (const [oid, o] of panes.current) {
          if (oid === id) continue;
          const ovp = o.viewer.viewport;
          ovp.zoomTo(zoomForMagnification(mag, o.objective, imageToViewportFactor(o.viewer)), undefined, true);
          ovp.panTo(center, true);
          if (Math.abs(ovp.getRotation(true) - rot) > 0.01) ovp.setRotation(rot, true);
        }
        applying.current = false;
      };
      p.viewer.addHandler('update-viewport', follow);
      offs.push(() => p.viewer.removeHandler('update-viewport', follow));
    }
    return () => offs.forEach((f) => f());
  }, [sync, version]);

  return { setPane, lead };
}
