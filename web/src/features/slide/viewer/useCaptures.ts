// Snapshots of the current view: uploaded as images and remembered in the
// browser for the case (or the slide) so the expert can pick them for a report.
import { useEffect, useState, type RefObject } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { uploadImage } from '../api';
import { captureView } from '../capture';
import type { Viewer } from '../osd';
import { loadCaptures, saveCaptures, type Capture } from '../store';

interface Options {
  caseId: number | null;
  slideId: number;
  filename: string | undefined;
  viewer: Viewer | null;
  filter: string;
  quality: number;
  /** The annotation overlay to draw into the snapshot, when shown. */
  overlay: RefObject<HTMLDivElement | null> | null;
  onCaptured: () => void;
}

export function useCaptures({ caseId, slideId, filename, viewer, filter, quality, overlay, onCaptured }: Options) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [captures, setCaptures] = useState<Capture[]>([]);
  const [capturing, setCapturing] = useState(false);

  useEffect(() => {
    void loadCaptures(caseId, slideId).then(setCaptures);
  }, [caseId, slideId]);

  const capture = async () => {
    if (!viewer) return;
    setCapturing(true);
    try {
      const blob = await captureView(viewer, filter, quality, overlay ? overlay.current : null);
      const name = `${(filename ?? 'slide').replace(/\.[^.]+$/, '')}-${new Date().toISOString().replace(/[:.]/g, '-')}.jpg`;
      const url = await uploadImage(blob, name);
      const next = [{ url, slideId, filename: name, createdAt: new Date().toISOString() }, ...captures];
      setCaptures(next);
      await saveCaptures(caseId, slideId, next);
      onCaptured();
      void message.success(t('slide.captured'));
    } catch (e) {
      void message.error(e instanceof Error && e.message ? e.message : t('slide.captureFailed'));
    } finally {
      setCapturing(false);
    }
  };

  const removeCapture = async (c: Capture) => {
    const next = captures.filter((x) => x !== c);
    setCaptures(next);
    await saveCaptures(caseId, slideId, next);
  };

  return { captures, capturing, capture, removeCapture };
}
