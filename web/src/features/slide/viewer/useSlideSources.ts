// Where the viewer gets a slide from: the signed Deep Zoom, thumbnail and label
// URLs (lib/slideViewer), and the record that the user opened the slide.
import { useEffect } from 'react';
import { recordView, useViewerInfo } from '../api';

export function useSlideSources(slideId: number) {
  const info = useViewerInfo(Number.isInteger(slideId) && slideId > 0 ? slideId : null, { live: true });
  useEffect(() => {
    if (slideId > 0 && info.data) void recordView(slideId);
  }, [slideId, info.data]);
  return info;
}
