// The viewer's keyboard shortcuts (the help popover lists them): zoom, pan,
// rotate, home, full screen, the ruler, Escape and Delete.
import { useEffect, type Dispatch, type SetStateAction } from 'react';
import OpenSeadragon from 'openseadragon';
import type { Annotation } from '../annotations';
import type { Viewer } from '../osd';
import type { AnnotationTools } from './useAnnotationTools';

const isTyping = (e: KeyboardEvent) => {
  const el = e.target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
};

export function useViewerKeys(viewer: Viewer | null, tools: AnnotationTools, toggleFullscreen: () => void, setAnnotations: Dispatch<SetStateAction<Annotation[]>>) {
  const { active, selectedId, selectTool, setSelectedId } = tools;
  useEffect(() => {
    if (!viewer) return;
    const vp = viewer.viewport;
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      const panStep = 0.15 / vp.getZoom(true);
      const rot = vp.getRotation();
      switch (e.key) {
        case '+':
        case '=':
          vp.zoomBy(1.5);
          break;
        case '-':
        case '_':
          vp.zoomBy(1 / 1.5);
          break;
        case 'ArrowLeft':
          vp.panBy(new OpenSeadragon.Point(-panStep, 0));
          break;
        case 'ArrowRight':
          vp.panBy(new OpenSeadragon.Point(panStep, 0));
          break;
        case 'ArrowUp':
          vp.panBy(new OpenSeadragon.Point(0, -panStep));
          break;
        case 'ArrowDown':
          vp.panBy(new OpenSeadragon.Point(0, panStep));
          break;
        case 'r':
          vp.setRotation(rot + 90);
          break;
        case 'R':
          vp.setRotation(rot - 90);
          break;
        case '0':
          vp.goHome();
          break;
        case 'f':
        case 'F':
          toggleFullscreen();
          break;
        case 'm':
        case 'M':
          selectTool(active?.measure && active.tool === 'line' ? null : 'line', true);
          break;
        case 'Escape':
          if (active) selectTool(null, false);
          else setSelectedId(null);
          break;
        case 'Delete':
          if (selectedId !== null) setAnnotations((l) => l.filter((a) => a.id !== selectedId));
          break;
        default:
          return;
      }
      e.preventDefault();
      vp.applyConstraints();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [viewer, active, selectedId, selectTool, setSelectedId, toggleFullscreen, setAnnotations]);
}
