import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { App, Button, Divider, Empty, Flex, Image, Popover, Result, Segmented, Slider, Space, Spin, Tooltip, Typography } from 'antd';
import {
  ArrowLeftOutlined, BgColorsOutlined, CameraOutlined, CompressOutlined, ExpandOutlined, HomeOutlined, MenuFoldOutlined,
  MenuUnfoldOutlined, QuestionCircleOutlined, SettingOutlined, TagOutlined, EyeInvisibleOutlined, EyeOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import OpenSeadragon from 'openseadragon';
import { ApiError } from '../../lib/api/errors';
import { recordView, uploadImage, useViewerInfo } from './api';
import { annotationBounds, DEFAULT_COLOR, LINE_WIDTHS, nextId, type Annotation, type Tool } from './annotations';
import { readonlyLabels, useServerAnnotations } from './annotationSync';
import { OthersPanel, SaveStatus } from './OthersPanel';
import { AnnotationLayer, type ActiveTool, type Draft } from './AnnotationLayer';
import { AnnotationForm, AnnotationPanel, ColorSwatches, type LabelValues } from './AnnotationPanel';
import { captureView } from './capture';
import { SaveShotButton } from './SaveShotButton';
import { AdjustPanel, cssFilter, DEFAULT_ADJUST, GammaFilter, MagnificationBar, RotationControl, ScaleBar, ShortcutHelp, type Adjustments } from './controls';
import { effectiveObjective } from './geometry';
import { AreaPolygonIcon, AreaRectIcon, ArrowIcon, EllipseIcon, FreehandIcon, PanIcon, PolygonIcon, RectIcon, RulerIcon, TextIcon } from './icons';
import { fitImageRect, type Viewer } from './osd';
import { SlideCanvas } from './SlideCanvas';
import { SlideStrip } from './SlideStrip';
import { loadCaptures, saveCaptures, type Capture } from './store';

const GAMMA_ID = 'tp-slide-gamma';

const TOOL_BUTTONS: { key: string; tool: Tool | null; measure: boolean; icon: React.ReactNode; label: string }[] = [
  { key: 'pan', tool: null, measure: false, icon: <PanIcon />, label: 'slide.tool.pan' },
  { key: 'rect', tool: 'rect', measure: false, icon: <RectIcon />, label: 'slide.tool.rect' },
  { key: 'ellipse', tool: 'ellipse', measure: false, icon: <EllipseIcon />, label: 'slide.tool.ellipse' },
  { key: 'polygon', tool: 'polygon', measure: false, icon: <PolygonIcon />, label: 'slide.tool.polygon' },
  { key: 'freehand', tool: 'freehand', measure: false, icon: <FreehandIcon />, label: 'slide.tool.freehand' },
  { key: 'arrow', tool: 'arrow', measure: false, icon: <ArrowIcon />, label: 'slide.tool.arrow' },
  { key: 'text', tool: 'text', measure: false, icon: <TextIcon />, label: 'slide.tool.text' },
  { key: 'm-line', tool: 'line', measure: true, icon: <RulerIcon />, label: 'slide.tool.measureLine' },
  { key: 'm-rect', tool: 'rect', measure: true, icon: <AreaRectIcon />, label: 'slide.tool.measureRect' },
  { key: 'm-polygon', tool: 'polygon', measure: true, icon: <AreaPolygonIcon />, label: 'slide.tool.measurePolygon' },
];

const isTyping = (e: KeyboardEvent) => {
  const el = e.target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
};

/** Full-screen whole-slide viewer: /slide/view/{slideId}?case={consultId}. */
export default function SlideViewerPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const params = useParams();
  const [search] = useSearchParams();
  const slideId = Number(params.slideId);
  const caseId = Number(search.get('case')) || null;
  const bench = Math.min(20000, Number(search.get('bench')) || 0);
  const info = useViewerInfo(Number.isInteger(slideId) && slideId > 0 ? slideId : null);

  const [viewer, setViewer] = useState<Viewer | null>(null);
  const [adjust, setAdjust] = useState<Adjustments>(DEFAULT_ADJUST);
  const [active, setActive] = useState<ActiveTool | null>(null);
  const [color, setColor] = useState(DEFAULT_COLOR);
  const [lineWidth, setLineWidth] = useState(2);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [form, setForm] = useState<{ draft?: Draft; edit?: Annotation } | null>(null);
  const [panel, setPanel] = useState(true);
  const [panelTab, setPanelTab] = useState<'ann' | 'cap'>('ann');
  const [showAnn, setShowAnn] = useState(true);
  const [quality, setQuality] = useState(100);
  const [captures, setCaptures] = useState<Capture[]>([]);
  const [capturing, setCapturing] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [fps, setFps] = useState(0);
  const overlay = useRef<HTMLDivElement>(null);

  const objective = info.data ? effectiveObjective(info.data.objective, info.data.mpp) : 40;
  const mpp = info.data?.mpp ?? 0;
  const filter = cssFilter(adjust, GAMMA_ID);

  useEffect(() => {
    if (slideId > 0 && info.data) void recordView(slideId);
  }, [slideId, info.data]);

  // Annotations of this slide: one's own, saved on the server as they change; the others' read-only.
  const benchSet = useMemo(() => (bench && info.data ? { n: bench, width: info.data.width, height: info.data.height } : null), [bench, info.data]);
  const { annotations, setAnnotations, others, loadError: annLoadError, saveState, saveError } = useServerAnnotations(slideId, !!info.data && (!bench || !!benchSet), benchSet);
  const [hiddenAuthors, setHiddenAuthors] = useState<ReadonlySet<number>>(new Set());
  const othersShown = useMemo(() => readonlyLabels(others, hiddenAuthors), [others, hiddenAuthors]);
  useEffect(() => setSelectedId(null), [slideId]);

  useEffect(() => {
    void loadCaptures(caseId, slideId).then(setCaptures);
  }, [caseId, slideId]);

  // Frames per second while the view moves (shown with ?bench=N).
  useEffect(() => {
    if (!bench) return;
    let frames = 0;
    let raf = 0;
    const loop = () => {
      frames++;
      raf = requestAnimationFrame(loop);
    };
    raf = requestAnimationFrame(loop);
    const h = setInterval(() => {
      setFps(frames);
      frames = 0;
    }, 1000);
    return () => {
      cancelAnimationFrame(raf);
      clearInterval(h);
    };
  }, [bench]);

  useEffect(() => {
    const on = () => setFullscreen(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  const toggleFullscreen = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  }, []);

  const selectTool = useCallback((tool: Tool | null, measure: boolean) => {
    setActive(tool ? { tool, measure } : null);
    setSelectedId(null);
  }, []);

  // Keyboard shortcuts (help popover lists them).
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
  }, [viewer, active, selectedId, selectTool, toggleFullscreen, setAnnotations]);

  const onFinish = useCallback(
    (d: Draft) => {
      if (d.measure) {
        setAnnotations((l) => [...l, { id: nextId(l), tool: d.tool, points: d.points, color, lineWidth: 2, description: '', measure: true }]);
        return;
      }
      setForm({ draft: d });
    },
    [color, setAnnotations],
  );

  const saveForm = (v: LabelValues) => {
    if (form?.edit) {
      const id = form.edit.id;
      setAnnotations((l) => l.map((a) => (a.id === id ? { ...a, ...v } : a)));
    } else if (form?.draft) {
      const d = form.draft;
      setAnnotations((l) => {
        const a: Annotation = { id: nextId(l), tool: d.tool, points: d.points, color: v.color, lineWidth: v.lineWidth ?? lineWidth, description: v.description ?? '' };
        if (d.tool === 'text') a.fontSize = v.fontSize ?? 16;
        setSelectedId(a.id);
        return [...l, a];
      });
      setColor(v.color);
      if (v.lineWidth) setLineWidth(v.lineWidth);
    }
    setForm(null);
  };

  const jumpTo = (a: Annotation) => {
    setSelectedId(a.id);
    if (viewer) fitImageRect(viewer, annotationBounds(a));
  };

  const capture = async () => {
    if (!viewer) return;
    setCapturing(true);
    try {
      const blob = await captureView(viewer, filter, quality, showAnn ? overlay.current : null);
      const name = `${(info.data?.filename ?? 'slide').replace(/\.[^.]+$/, '')}-${new Date().toISOString().replace(/[:.]/g, '-')}.jpg`;
      const url = await uploadImage(blob, name);
      const next = [{ url, slideId, filename: name, createdAt: new Date().toISOString() }, ...captures];
      setCaptures(next);
      await saveCaptures(caseId, slideId, next);
      setPanel(true);
      setPanelTab('cap');
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

  const formInitial = useMemo<LabelValues>(
    () => (form?.edit ? { color: form.edit.color, lineWidth: form.edit.lineWidth, description: form.edit.description, fontSize: form.edit.fontSize } : { color, lineWidth, description: '', fontSize: 16 }),
    [form, color, lineWidth],
  );

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
    const d = info.data;
    body = (
      <div ref={overlay} style={{ position: 'relative', flex: 1, minWidth: 0 }}>
        <GammaFilter id={GAMMA_ID} gamma={adjust.gamma} />
        <SlideCanvas info={d} filter={filter} onViewer={setViewer}>
          {(v) => (
            <>
              <AnnotationLayer viewer={v} annotations={annotations} readonly={othersShown} selectedId={selectedId} onSelect={setSelectedId} active={active} color={color} lineWidth={lineWidth} mpp={mpp} onFinish={onFinish} hidden={!showAnn} />
              <ScaleBar viewer={v} mpp={mpp} />
            </>
          )}
        </SlideCanvas>
        <div style={{ position: 'absolute', left: 12, top: 12, display: 'flex', flexDirection: 'column', gap: 4, background: 'rgba(255,255,255,0.94)', borderRadius: 8, padding: 4, boxShadow: '0 2px 8px rgba(15,23,42,0.15)' }} data-testid="tool-bar">
          {TOOL_BUTTONS.map((b, i) => {
            const on = b.tool === null ? !active : active?.tool === b.tool && active.measure === b.measure;
            return (
              <div key={b.key}>
                {i === 7 && <Divider style={{ margin: '4px 0' }} />}
                <Tooltip title={t(b.label)} placement="right">
                  <Button type={on ? 'primary' : 'text'} icon={b.icon} onClick={() => selectTool(b.tool, b.measure)} aria-label={t(b.label)} data-testid={`tool-${b.key}`} />
                </Tooltip>
              </div>
            );
          })}
          <Divider style={{ margin: '4px 0' }} />
          <Popover
            placement="right"
            trigger="click"
            content={
              <div style={{ width: 220 }}>
                <Typography.Text type="secondary">{t('slide.ann.color')}</Typography.Text>
                <div style={{ margin: '6px 0 10px' }}>
                  <ColorSwatches value={color} onChange={setColor} />
                </div>
                <Typography.Text type="secondary">{t('slide.ann.lineWidth')}</Typography.Text>
                <div style={{ marginTop: 6 }}>
                  <Segmented size="small" value={lineWidth} onChange={(v) => setLineWidth(Number(v))} options={LINE_WIDTHS.map((w) => ({ value: w, label: String(w) }))} />
                </div>
              </div>
            }
          >
            <Tooltip title={t('slide.ann.style')} placement="right">
              <Button type="text" aria-label={t('slide.ann.style')} icon={<span style={{ display: 'inline-block', width: 16, height: 16, borderRadius: 8, background: color, border: '2px solid #fff', boxShadow: '0 0 0 1px #cbd5e1' }} />} />
            </Tooltip>
          </Popover>
          <Tooltip title={showAnn ? t('slide.ann.hide') : t('slide.ann.show')} placement="right">
            <Button type="text" icon={showAnn ? <EyeOutlined /> : <EyeInvisibleOutlined />} onClick={() => setShowAnn((s) => !s)} aria-label={showAnn ? t('slide.ann.hide') : t('slide.ann.show')} />
          </Tooltip>
        </div>
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
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column', background: '#fff' }} data-testid="slide-viewer">
      <div style={{ height: 52, flex: 'none', display: 'flex', alignItems: 'center', gap: 10, padding: '0 12px', borderBottom: '1px solid #e5e7eb', overflow: 'hidden' }}>
        <Tooltip title={t('slide.back')}>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={back} aria-label={t('slide.back')} />
        </Tooltip>
        <div style={{ minWidth: 120, flex: '1 1 auto' }}>
          <Typography.Text strong ellipsis style={{ display: 'block' }} data-testid="slide-title">
            {d?.filename ?? t('slide.title')}
          </Typography.Text>
          {d && (
            <Typography.Text type="secondary" style={{ fontSize: 12, display: "block" }} ellipsis>
              {d.format.toUpperCase()} · {d.width.toLocaleString()} × {d.height.toLocaleString()} px · {d.mpp > 0 ? `${d.mpp.toFixed(4)} µm/px` : t('slide.noMpp')} · {t('slide.objective', { value: objective })}
            </Typography.Text>
          )}
        </div>
        <MagnificationBar viewer={viewer} objective={objective} />
        <Tooltip title={t('slide.home')}>
          <Button size="small" icon={<HomeOutlined />} onClick={() => viewer?.viewport.goHome()} disabled={!viewer} aria-label={t('slide.home')} />
        </Tooltip>
        <RotationControl viewer={viewer} />
        <Space.Compact size="small">
          <Popover trigger="click" placement="bottomRight" content={<AdjustPanel value={adjust} onChange={setAdjust} />} title={t('slide.adjust')}>
            <Tooltip title={t('slide.adjust')}>
              <Button icon={<BgColorsOutlined />} disabled={!d} aria-label={t('slide.adjust')} type={filter ? 'primary' : 'default'} ghost={!!filter} data-testid="adjust" />
            </Tooltip>
          </Popover>
          <Popover
            trigger="click"
            placement="bottomRight"
            title={t('slide.label')}
            content={d?.label_url ? <Image src={d.label_url} width={220} alt={t('slide.label')} /> : d?.macro_url ? <Image src={d.macro_url} width={260} alt={t('slide.label')} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('slide.noLabel')} />}
          >
            <Tooltip title={t('slide.label')}>
              <Button icon={<TagOutlined />} disabled={!d} aria-label={t('slide.label')} data-testid="label" />
            </Tooltip>
          </Popover>
        </Space.Compact>
        {caseId && viewer && (
          <SaveShotButton caseId={caseId} slideId={slideId} capture={() => captureView(viewer, filter, quality, showAnn ? overlay.current : null)} />
        )}
        <Space.Compact size="small">
          <Tooltip title={t('slide.capture')}>
            <Button icon={<CameraOutlined />} onClick={() => void capture()} loading={capturing} disabled={!viewer} data-testid="capture">
              {t('slide.captureShort')}
            </Button>
          </Tooltip>
          <Popover
            trigger="click"
            placement="bottomRight"
            content={
              <div style={{ width: 220 }}>
                <Typography.Text type="secondary">{t('slide.compression')}</Typography.Text>
                <Slider min={1} max={100} value={quality} onChange={setQuality} />
              </div>
            }
          >
            <Button icon={<SettingOutlined />} aria-label={t('slide.compression')} disabled={!viewer} />
          </Popover>
        </Space.Compact>
        <Space.Compact size="small">
          <Popover trigger="click" placement="bottomRight" title={t('slide.shortcuts')} content={<ShortcutHelp />}>
            <Tooltip title={t('slide.shortcuts')}>
              <Button icon={<QuestionCircleOutlined />} aria-label={t('slide.shortcuts')} data-testid="help" />
            </Tooltip>
          </Popover>
          <Tooltip title={fullscreen ? t('slide.exitFullscreen') : t('slide.fullscreen')}>
            <Button icon={fullscreen ? <CompressOutlined /> : <ExpandOutlined />} onClick={toggleFullscreen} aria-label={t('slide.fullscreen')} />
          </Tooltip>
          <Tooltip title={panel ? t('slide.hidePanel') : t('slide.showPanel')}>
            <Button icon={panel ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={() => setPanel((p) => !p)} aria-label={t('slide.showPanel')} />
          </Tooltip>
        </Space.Compact>
      </div>
      <div style={{ flex: 1, display: 'flex', minHeight: 0 }}>
        {body}
        {panel && d && (
          <div style={{ width: 300, flex: 'none', borderLeft: '1px solid #e5e7eb', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
            <div style={{ padding: '8px 12px 0' }}>
              <Segmented block value={panelTab} onChange={(v) => setPanelTab(v as 'ann' | 'cap')} options={[{ value: 'ann', label: t('slide.ann.title') }, { value: 'cap', label: t('slide.captures', { count: captures.length }) }]} />
            </div>
            <div style={{ flex: 1, minHeight: 0 }}>
              {panelTab === 'ann' ? (
                <Flex vertical style={{ height: '100%' }}>
                <div style={{ padding: '6px 12px 0' }}>
                  {annLoadError ? <Typography.Text type="danger" style={{ fontSize: 12 }}>{t('slide.ann.loadFailed', { message: annLoadError })}</Typography.Text> : <SaveStatus state={saveState} error={saveError} />}
                </div>
                <div style={{ flex: 1, minHeight: 0 }}>
                <AnnotationPanel
                  list={annotations}
                  selectedId={selectedId}
                  mpp={mpp}
                  slideName={d.filename}
                  onSelect={jumpTo}
                  onEdit={(a) => setForm({ edit: a })}
                  onDelete={(a) => setAnnotations((l) => l.filter((x) => x.id !== a.id))}
                  onImport={(got) => setAnnotations((l) => [...l, ...got])}
                  onClear={() => setAnnotations([])}
                />
                </div>
                <OthersPanel
                  others={others}
                  hidden={hiddenAuthors}
                  onToggle={(id, show) => setHiddenAuthors((h) => { const n = new Set(h); if (show) n.delete(id); else n.add(id); return n; })}
                  onJump={(a) => viewer && fitImageRect(viewer, annotationBounds(a))}
                />
                </Flex>
              ) : (
                <CaptureGallery captures={captures} onRemove={(c) => void removeCapture(c)} caseId={caseId} />
              )}
            </div>
          </div>
        )}
      </div>
      {caseId && <SlideStrip caseId={caseId} currentId={slideId} />}
      <AnnotationForm open={!!form} editing={!!form?.edit} isText={(form?.edit ?? form?.draft)?.tool === 'text'} initial={formInitial} onOk={saveForm} onCancel={() => setForm(null)} />
    </div>
  );
}

function CaptureGallery({ captures, onRemove, caseId }: { captures: Capture[]; onRemove: (c: Capture) => void; caseId: number | null }) {
  const { t } = useTranslation();
  if (!captures.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('slide.noCaptures')} style={{ marginTop: 40 }} />;
  return (
    <div style={{ padding: 12, overflow: 'auto', height: '100%' }} data-testid="captures">
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {caseId ? t('slide.capturesForCase') : t('slide.capturesForSlide')}
      </Typography.Paragraph>
      <Image.PreviewGroup>
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
          {captures.map((c) => (
            <div key={c.url + c.createdAt} style={{ position: 'relative' }}>
              <Image src={c.url} alt={c.filename} style={{ width: '100%', aspectRatio: '4/3', objectFit: 'cover', borderRadius: 4 }} />
              <Button size="small" type="text" danger style={{ position: 'absolute', right: 0, top: 0, background: 'rgba(255,255,255,0.85)' }} onClick={() => onRemove(c)} aria-label={t('common.delete')}>
                ×
              </Button>
            </div>
          ))}
        </div>
      </Image.PreviewGroup>
    </div>
  );
}

