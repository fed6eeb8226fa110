// /slide/view/{slideId}?case={consultId} — the full-screen whole-slide viewer.
// Where the slide comes from is viewer/useSlideSources; drawing, snapshots and
// the keyboard are hooks in viewer/; the bars and the side panel are panels.
import { useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useSearchParams } from '../../lib/searchParams';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api/errors';
import { readonlyLabels, useServerAnnotations } from './annotationSync';
import { AnnotationLayer } from './AnnotationLayer';
import { AnnotationForm } from './AnnotationPanel';
import { captureView } from './capture';
import { cssFilter, DEFAULT_ADJUST, GammaFilter, ScaleBar, type Adjustments } from './controls';
import { effectiveObjective } from './geometry';
import type { Viewer } from './osd';
import { SlideCanvas } from './SlideCanvas';
import { SlideStrip } from './SlideStrip';
import { MeetingBar } from './meeting/MeetingBar';
import { useMeetingAnnotations } from './meeting/useMeeting';
import { useSlideSources } from './viewer/useSlideSources';
import { useAnnotationTools } from './viewer/useAnnotationTools';
import { useCaptures } from './viewer/useCaptures';
import { useFullscreen } from './viewer/useFullscreen';
import { useFps } from './viewer/useFps';
import { useViewerKeys } from './viewer/useViewerKeys';
import { ViewerHeader } from './viewer/ViewerHeader';
import { ViewerToolBar } from './viewer/ViewerToolBar';
import { ViewerSidePanel, type PanelTab } from './viewer/ViewerSidePanel';

const GAMMA_ID = 'tp-slide-gamma';

export default function SlideViewerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const [search] = useSearchParams();
  const slideId = Number(params.slideId);
  const caseId = Number(search.get('case')) || null;
  const meetingId = Number(search.get('meeting')) || null;
  const bench = Math.min(20000, Number(search.get('bench')) || 0);
  const info = useSlideSources(slideId);

  const [viewer, setViewer] = useState<Viewer | null>(null);
  const meetingPanes = useMemo(() => (viewer ? [{ slideId, viewer }] : []), [slideId, viewer]);
  const [adjust, setAdjust] = useState<Adjustments>(DEFAULT_ADJUST);
  const [panel, setPanel] = useState(true);
  const [panelTab, setPanelTab] = useState<PanelTab>('ann');
  const [showAnn, setShowAnn] = useState(true);
  const [quality, setQuality] = useState(100);
  const overlay = useRef<HTMLDivElement>(null);
  const { fullscreen, toggleFullscreen } = useFullscreen();
  const fps = useFps(!!bench);

  const objective = info.data ? effectiveObjective(info.data.objective, info.data.mpp) : 40;
  const mpp = info.data?.mpp ?? 0;
  const filter = cssFilter(adjust, GAMMA_ID);

  // Annotations of this slide: one's own, saved on the server as they change; the others' read-only.
  const benchSet = useMemo(() => (bench && info.data ? { n: bench, width: info.data.width, height: info.data.height } : null), [bench, info.data]);
  const ann = useServerAnnotations(slideId, !!info.data && (!bench || !!benchSet), benchSet);
  const { annotations, setAnnotations, others } = ann;
  const [hiddenAuthors, setHiddenAuthors] = useState<ReadonlySet<number>>(new Set());
  const othersShown = useMemo(() => readonlyLabels(others, hiddenAuthors), [others, hiddenAuthors]);
  useMeetingAnnotations(meetingId, slideId, ann.reloadOthers);
  const tools = useAnnotationTools(slideId, viewer, setAnnotations);
  useViewerKeys(viewer, tools, toggleFullscreen, setAnnotations);

  const captures = useCaptures({
    caseId,
    slideId,
    filename: info.data?.filename,
    viewer,
    filter,
    quality,
    overlay: showAnn ? overlay : null,
    onCaptured: () => {
      setPanel(true);
      setPanelTab('cap');
    },
  });

  const back = () => (window.history.length > 1 ? navigate(-1) : navigate('/manage'));

  let body: React.ReactNode;
  if (info.isLoading) body = <Spin size="large" style={{ margin: 'auto' }} />;
  else if (info.isError) {
    const err = info.error;
    const notViewable = err instanceof ApiError && err.status === 409;
    body = (
      <Result
        style={{ margin: 'auto' }}
        status={notViewable ? 'warning' : err instanceof ApiError && err.status === 404 ? '404' : 'error'}
        title={notViewable ? t('slide.notViewable') : t('slide.loadFailed')}
        subTitle={err?.message}
        extra={<Button onClick={back}>{t('slide.back')}</Button>}
        data-testid="slide-not-viewable"
      />
    );
  } else if (info.data) {
    const { active, selectedId, setSelectedId, color, lineWidth, onFinish } = tools;
    body = (
      <div ref={overlay} style={{ position: 'relative', flex: 1, minWidth: 0 }}>
        <GammaFilter id={GAMMA_ID} gamma={adjust.gamma} />
        <SlideCanvas info={info.data} filter={filter} onViewer={setViewer}>
          {(v) => (
            <>
              <AnnotationLayer viewer={v} annotations={annotations} readonly={othersShown} selectedId={selectedId} onSelect={setSelectedId} active={active} color={color} lineWidth={lineWidth} mpp={mpp} onFinish={onFinish} hidden={!showAnn} />
              <ScaleBar viewer={v} mpp={mpp} />
            </>
          )}
        </SlideCanvas>
        {meetingId && caseId && <MeetingBar meetingId={meetingId} caseId={caseId} slideIds={[slideId]} panes={meetingPanes} />}
        <ViewerToolBar tools={tools} showAnn={showAnn} onToggleAnn={() => setShowAnn((s) => !s)} />
        {active && (
          <div style={{ position: 'absolute', top: 12, left: '50%', transform: 'translateX(-50%)', background: 'rgba(17,24,39,0.82)', color: '#fff', borderRadius: 6, padding: '4px 12px', fontSize: 13, pointerEvents: 'none' }}>
            {active.tool === 'polygon' ? t('slide.hint.polygon') : active.tool === 'text' ? t('slide.hint.text') : t('slide.hint.drag')}
          </div>
        )}
        {bench > 0 && (
          <div style={{ position: 'absolute', right: 12, top: 12, background: '#111827', color: '#34d399', padding: '4px 10px', borderRadius: 4, font: '13px ui-monospace, monospace' }} data-testid="fps">
            {annotations.length} · {fps} fps
          </div>
        )}
      </div>
    );
  }

  const d = info.data;
  const { form } = tools;
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column', background: '#fff' }} data-testid="slide-viewer">
      <ViewerHeader
        d={d}
        viewer={viewer}
        objective={objective}
        onBack={back}
        adjust={adjust}
        onAdjust={setAdjust}
        filter={filter}
        caseId={caseId}
        slideId={slideId}
        snapshot={() => captureView(viewer!, filter, quality, showAnn ? overlay.current : null)}
        capture={{ run: () => void captures.capture(), busy: captures.capturing, quality, setQuality }}
        fullscreen={fullscreen}
        onFullscreen={toggleFullscreen}
        panel={panel}
        onPanel={() => setPanel((p) => !p)}
      />
      <div style={{ flex: 1, display: 'flex', minHeight: 0 }}>
        {body}
        {panel && d && (
          <ViewerSidePanel
            tab={panelTab}
            onTab={setPanelTab}
            slideName={d.filename}
            mpp={mpp}
            viewer={viewer}
            ann={ann}
            tools={tools}
            hiddenAuthors={hiddenAuthors}
            setHiddenAuthors={setHiddenAuthors}
            captures={captures.captures}
            onRemoveCapture={(c) => void captures.removeCapture(c)}
            caseId={caseId}
          />
        )}
      </div>
      {caseId && <SlideStrip caseId={caseId} currentId={slideId} />}
      <AnnotationForm open={!!form} editing={!!form?.edit} isText={(form?.edit ?? form?.draft)?.tool === 'text'} initial={tools.formInitial} onOk={tools.saveForm} onCancel={() => tools.setForm(null)} />
    </div>
  );
}
