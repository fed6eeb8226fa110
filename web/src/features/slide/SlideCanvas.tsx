import OpenSeadragon from 'openseadragon';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ViewerInfo } from './api';
import type { Viewer } from './osd';

interface Props {
  info: ViewerInfo;
  /** CSS filter for the tiles (brightness, contrast, saturation, gamma). */
  filter?: string;
  navigator?: boolean;
  onViewer?: (v: Viewer | null) => void;
  /** Overlays drawn over the slide once it is open. */
  children?: (v: Viewer) => ReactNode;
}

/** OpenSeadragon on the slide's signed Deep Zoom URL, with loading and "loading failed" states. */
export function SlideCanvas({ info, filter, navigator = true, onViewer, children }: Props) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [viewer, setViewer] = useState<Viewer | null>(null);
  const [state, setState] = useState<'loading' | 'open' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);
  const onViewerRef = useRef(onViewer);
  onViewerRef.current = onViewer;

  useEffect(() => {
    if (!host.current) return;
    setState('loading');
    const v = OpenSeadragon({
      element: host.current,
      tileSources: info.dzi_url,
      // 2D canvas: CSS filters apply and screenshots can read the pixels back.
      drawer: 'canvas',
      showNavigationControl: false,
      showNavigator: navigator,
      navigatorPosition: 'BOTTOM_RIGHT',
      navigatorSizeRatio: 0.16,
      navigatorAutoFade: false,
      navigatorBackground: '#f3f4f6',
      navigatorBorderColor: '#9aa5b1',
      navigatorDisplayRegionColor: '#027AFF',
      animationTime: 0.6,
      springStiffness: 9,
      blendTime: 0.1,
      maxZoomPixelRatio: 4,
      minZoomImageRatio: 0.5,
      visibilityRatio: 0.3,
      constrainDuringPan: false,
      immediateRender: false,
      imageLoaderLimit: 8,
      maxImageCacheCount: 600,
      timeout: 120000,
      gestureSettingsMouse: { clickToZoom: false, dblClickToZoom: true, flickEnabled: true },
      zoomPerScroll: 1.4,
      preserveImageSizeOnResize: true,
    });
    // Our keyboard shortcuts replace OpenSeadragon's own (wasd, r, …).
    v.addHandler('canvas-key', (e) => {
      (e as unknown as { preventDefaultAction: boolean }).preventDefaultAction = true;
    });
    v.addHandler('open', () => {
      setState('open');
      setViewer(v);
      onViewerRef.current?.(v);
    });
    v.addHandler('open-failed', () => setState('failed'));
    return () => {
      onViewerRef.current?.(null);
      setViewer(null);
      v.destroy();
    };
  }, [info.dzi_url, navigator, attempt]);

  return (
    <div style={{ position: 'absolute', inset: 0, background: '#e9ecef' }}>
      <div ref={host} style={{ position: 'absolute', inset: 0, filter: filter || undefined }} data-testid="slide-canvas" />
      {state === 'loading' && (
        <div style={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', pointerEvents: 'none' }}>
          <Spin size="large" tip={t('slide.loading')}>
            <div style={{ width: 120, height: 60 }} />
          </Spin>
        </div>
      )}
      {state === 'failed' && (
        <div style={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', background: '#f5f6f8' }}>
          <Result status="warning" title={t('slide.loadFailed')} extra={<Button onClick={() => setAttempt((a) => a + 1)}>{t('slide.retry')}</Button>} />
        </div>
      )}
      {state === 'open' && viewer && children?.(viewer)}
    </div>
  );
}
