// The full-screen image annotation editor (spec 1 §4 Image annotation editor
// modes): draw labels with nine tools, select, edit and delete them; rotate
// and crop (overwriting the image, labels cleared); process (brightness,
// saturation, contrast, JPEG quality) and save as a new image; restore the
// original. Plain 2D canvas, the slide viewer's own drawing layer kind.
import { App, Button, Divider, Flex, Form, Input, InputNumber, Modal, Radio, Slider, Space, Spin, Table, Tooltip, Typography } from 'antd';
import {
  ArrowRightOutlined, BorderOutlined, CloseOutlined, CommentOutlined, DeleteOutlined, EditOutlined, FlagOutlined, FontSizeOutlined,
  LineOutlined, RedoOutlined, RollbackOutlined, SaveOutlined, ScissorOutlined, SlidersOutlined, StarOutlined, SwapOutlined,
  UnorderedListOutlined, ZoomInOutlined, ZoomOutOutlined, SignatureOutlined, StopOutlined,
} from '@ant-design/icons';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../../components/ui/useApiError';
import { useImageUrl, useRestore, useRotate, useSaveCopy, useSaveLabels, type CropRect, type GalleryImage } from './api';
import { drawLabel } from './draw';
import { createSaveQueue } from './saveQueue';
import {
  clampPoints, defaultForm, hitTest, initialCrop, isDrawn, isTwoPoint, labelBox, makeLabel, moveLabel, PALETTE, placeAtCentre, processFilter,
  resizeLabel, STROKES, TOOLS, type Label, type LabelForm, type Tool,
} from './labels';

type Mode = 'idle' | 'drawing' | 'rotate' | 'crop' | 'process';
interface Proc { brightness: number; saturate: number; contrast: number; compressionRatio: number }
const defaultProc: Proc = { brightness: 100, saturate: 100, contrast: 100, compressionRatio: 100 };
const MAX_ZOOM = 10;
const visuallyHidden = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
const MIN_ZOOM = 0.1;

const toolIcons: Record<Tool, ReactNode> = {
  font: <FontSizeOutlined />, line: <LineOutlined />, arrow: <ArrowRightOutlined />, bilateral: <SwapOutlined />, flag: <FlagOutlined />,
  star: <StarOutlined />, ellipse: <span aria-hidden style={{ display: 'inline-block', width: 14, height: 10, border: '2px solid currentColor', borderRadius: '50%' }} />,
  rect: <BorderOutlined />, curve: <SignatureOutlined />,
};

export function ImageEditor({ caseId, item, open, onClose, onSaved }: { caseId: number; item: GalleryImage; open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const showError = useApiError();
  const url = useImageUrl(item.path, item.version);
  const [img, setImg] = useState<HTMLImageElement | null>(null);
  const [labels, setLabels] = useState<Label[]>(item.labels);
  const [mode, setMode] = useState<Mode>('idle');
  const [tool, setTool] = useState<Tool | null>(null);
  const [draft, setDraft] = useState<number[] | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [form, setForm] = useState<{ type: 'add' | 'edit'; points: number[]; tool: Tool; id?: number; values: LabelForm; keyboard?: boolean } | null>(null);
  // What the keyboard did, for screen readers (a polite live region).
  const [announced, setAnnounced] = useState('');
  const pending = useRef<{ timer: number; labels: Label[] } | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const [angle, setAngle] = useState(0);
  const [crop, setCrop] = useState<CropRect>({ x: 0, y: 0, w: 0, h: 0 });
  const [proc, setProc] = useState<Proc>(defaultProc);
  const [zoom, setZoom] = useState(1);
  const [box, setBox] = useState({ w: 800, h: 600 });
  const canvas = useRef<HTMLCanvasElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const drag = useRef<{ kind: 'move' | 'new'; x: number; y: number; start: CropRect } | null>(null);
  const saveLabels = useSaveLabels();
  const rotate = useRotate();
  const restore = useRestore();
  const saveCopy = useSaveCopy();
  // Rotating, restoring or copying the image: nothing else until it is done. Label saves do not hold the
  // editor (edits made meanwhile are saved after them); only what changes the image waits for them.
  const busy = rotate.isPending || restore.isPending || saveCopy.isPending;
  const [savingLabels, setSavingLabels] = useState(false);
  const latest = useRef({ saveLabels, item, onSaved, showError });
  latest.current = { saveLabels, item, onSaved, showError };
  const [queue] = useState(() =>
    createSaveQueue<Label[]>((next) => latest.current.saveLabels.mutateAsync({ caseId, fileId: latest.current.item.id, labels: next }), {
      onIdle: () => latest.current.onSaved(),
      onError: (e) => {
        setLabels(latest.current.item.labels);
        latest.current.showError(e);
      },
      onBusy: setSavingLabels,
    }),
  );

  // The server's labels replace the editor's only when no edit of the editor's is still to be saved.
  useEffect(() => {
    if (!queue.busy() && !pending.current) setLabels(item.labels);
  }, [item.labels, queue]);
  useEffect(() => {
    if (!url) return;
    const i = new window.Image();
    i.onload = () => setImg(i);
    i.onerror = () => message.error(t('gallery.loadFailed'));
    i.src = url;
  }, [url, message, t]);
  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setBox({ w: el.clientWidth - 32, h: el.clientHeight - 32 }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [open]);

  const w = img?.naturalWidth ?? 1, h = img?.naturalHeight ?? 1;
  const fit = Math.max(0.01, Math.min(box.w / w, box.h / h));
  const scale = fit * zoom;

  // Paint: the image (processed in process mode), the labels, the shape being drawn, the crop frame.
  useEffect(() => {
    const c = canvas.current;
    if (!c || !img) return;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(w * scale * dpr);
    c.height = Math.round(h * scale * dpr);
    ctx.setTransform(scale * dpr, 0, 0, scale * dpr, 0, 0);
    ctx.filter = mode === 'process' ? processFilter(proc) : 'none';
    ctx.drawImage(img, 0, 0);
    ctx.filter = 'none';
    if (mode !== 'crop' && mode !== 'rotate') {
      for (const l of labels) drawLabel(ctx, l, l.id === selected);
      if (draft && tool) drawLabel(ctx, { ...makeLabel(labels, tool, draft, { ...defaultForm, description: '…' }) });
    }
    if (mode === 'crop') {
      ctx.fillStyle = 'rgba(0,0,0,0.45)';
      ctx.beginPath();
      ctx.rect(0, 0, w, h);
      ctx.rect(crop.x, crop.y, crop.w, crop.h);
      ctx.fill('evenodd');
      ctx.strokeStyle = '#fff';
      ctx.lineWidth = 2 / scale;
      ctx.setLineDash([6 / scale, 4 / scale]);
      ctx.strokeRect(crop.x, crop.y, crop.w, crop.h);
    }
  }, [img, labels, selected, draft, tool, mode, crop, proc, scale, w, h]);

  const at = (e: ReactMouseEvent) => {
    const r = canvas.current!.getBoundingClientRect();
    return [Math.min(Math.max((e.clientX - r.left) / scale, 0), w), Math.min(Math.max((e.clientY - r.top) / scale, 0), h)] as const;
  };

  const openAdd = (tl: Tool, points: number[]) =>
    setForm({ type: 'add', tool: tl, points: clampPoints(points, w, h), values: { ...defaultForm, description: '' } });

  const onDown = (e: ReactMouseEvent) => {
    if (!img || busy) return;
    const [x, y] = at(e);
    if (mode === 'drawing' && tool) {
      if (tool === 'font') return openAdd('font', [x, y]);
      setDraft(tool === 'curve' ? [x, y] : [x, y, x, y]);
    } else if (mode === 'crop') {
      const inside = x >= crop.x && x <= crop.x + crop.w && y >= crop.y && y <= crop.y + crop.h;
      drag.current = { kind: inside ? 'move' : 'new', x, y, start: crop };
    } else if (mode === 'idle') {
      setSelected(hitTest(labels, x, y, 6 / scale)?.id ?? null);
    }
  };
  const onMove = (e: ReactMouseEvent) => {
    const [x, y] = at(e);
    if (draft && tool) {
      if (isTwoPoint(tool)) setDraft([draft[0], draft[1], x, y]);
      else {
        const lx = draft[draft.length - 2], ly = draft[draft.length - 1];
        if (Math.hypot(x - lx, y - ly) * scale >= 3 && draft.length < 4000) setDraft([...draft, x, y]);
      }
    } else if (drag.current && mode === 'crop') {
      const d = drag.current;
      if (d.kind === 'move') {
        setCrop({ ...d.start, x: Math.round(Math.min(Math.max(d.start.x + x - d.x, 0), w - d.start.w)), y: Math.round(Math.min(Math.max(d.start.y + y - d.y, 0), h - d.start.h)) });
      } else {
        setCrop({ x: Math.round(Math.min(d.x, x)), y: Math.round(Math.min(d.y, y)), w: Math.max(1, Math.round(Math.abs(x - d.x))), h: Math.max(1, Math.round(Math.abs(y - d.y))) });
      }
    }
  };
  const onUp = () => {
    drag.current = null;
    if (draft && tool) {
      if (isDrawn(tool, draft)) openAdd(tool, draft);
      setDraft(null);
    }
  };

  const persist = (next: Label[]) => {
    // This save holds every change: a keyboard move still waiting is dropped, not saved after it.
    if (pending.current) {
      window.clearTimeout(pending.current.timer);
      pending.current = null;
    }
    setLabels(next);
    queue.push(next);
  };
  const saveForm = () => {
    if (!form) return;
    if (form.type === 'add') {
      const l = makeLabel(labels, form.tool, form.points, form.values);
      persist([...labels, l]);
      if (form.keyboard) {
        setMode('idle');
        setTool(null);
        setSelected(l.id);
        setAnnounced(t('gallery.kbd.placed', { tool: toolLabel[l.tool], id: l.id }));
        canvas.current?.focus();
      }
    } else {
      persist(labels.map((l) => (l.id === form.id ? { ...l, ...form.values } : l)));
    }
    setForm(null);
  };
  const editSelected = () => {
    const l = labels.find((x) => x.id === selected);
    if (l) setForm({ type: 'edit', tool: l.tool, points: l.points, id: l.id, values: { description: l.description, strokeStyle: l.strokeStyle, fillStyle: l.fillStyle, lineWidth: l.lineWidth, fontSize: l.fontSize } });
  };
  const deleteLabel = (id: number) => {
    setSelected(null);
    persist(labels.filter((l) => l.id !== id));
  };

  // Keyboard drawing: 1–9 choose a tool, Enter places its shape at the centre (then the label form), [ and ]
  // select the previous or next label, arrows move it (Alt: one pixel), Shift+arrows resize it, Enter edits
  // it, Delete removes it, Esc puts the tool down. Moves are saved a moment after the last key.
  const saveSoon = (next: Label[]) => {
    setLabels(next);
    if (pending.current) window.clearTimeout(pending.current.timer);
    const timer = window.setTimeout(() => {
      pending.current = null;
      queue.push(next);
    }, 600);
    pending.current = { timer, labels: next };
  };
  useEffect(() => () => {
    // Closing the editor saves what is still waiting.
    const p = pending.current;
    if (p) {
      window.clearTimeout(p.timer);
      queue.push(p.labels);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const describe = (l: Label) => {
    const b = labelBox(l);
    return t('gallery.kbd.at', { tool: toolLabel[l.tool], id: l.id, x: Math.round(b.x), y: Math.round(b.y), w: Math.round(b.w), h: Math.round(b.h) });
  };
  const onKey = (e: ReactKeyboardEvent) => {
    if (!img || busy || form || (mode !== 'idle' && mode !== 'drawing')) return;
    const sel = labels.find((l) => l.id === selected) ?? null;
    const n = Number(e.key);
    if (!e.ctrlKey && !e.metaKey && !e.altKey && Number.isInteger(n) && n >= 1 && n <= TOOLS.length) {
      const tl = TOOLS[n - 1];
      pickTool(tl);
      setAnnounced(tool === tl && mode === 'drawing' ? t('gallery.kbd.toolOff') : t('gallery.kbd.tool', { tool: toolLabel[tl] }));
    } else if (e.key === 'Enter' && mode === 'drawing' && tool) {
      setForm({ type: 'add', tool, points: placeAtCentre(tool, w, h), values: { ...defaultForm, description: '' }, keyboard: true });
    } else if (e.key === 'Enter' && sel) {
      editSelected();
    } else if ((e.key === ']' || e.key === '[') && labels.length > 0) {
      const at = labels.findIndex((l) => l.id === selected);
      const next = labels[(at + (e.key === ']' ? 1 : labels.length - 1 + (at < 0 ? 1 : 0))) % labels.length];
      setMode('idle');
      setTool(null);
      setSelected(next.id);
      setAnnounced(t('gallery.kbd.selected', { what: describe(next), n: labels.indexOf(next) + 1, count: labels.length }));
    } else if (sel && e.key.startsWith('Arrow')) {
      const step = e.altKey ? 1 : Math.max(1, Math.round(Math.max(w, h) / 100));
      const dx = e.key === 'ArrowLeft' ? -step : e.key === 'ArrowRight' ? step : 0;
      const dy = e.key === 'ArrowUp' ? -step : e.key === 'ArrowDown' ? step : 0;
      const changed = e.shiftKey ? resizeLabel(sel, dx, dy, w, h) : moveLabel(sel, dx, dy, w, h);
      saveSoon(labels.map((l) => (l.id === sel.id ? changed : l)));
      setAnnounced(sel.tool === 'font' && e.shiftKey ? t('gallery.kbd.fontSize', { size: changed.fontSize }) : describe(changed));
    } else if (sel && (e.key === 'Delete' || e.key === 'Backspace')) {
      deleteLabel(sel.id);
      setAnnounced(t('gallery.kbd.deleted', { tool: toolLabel[sel.tool], id: sel.id }));
    } else if (e.key === 'Escape' && (mode === 'drawing' || sel)) {
      enter('idle');
      setAnnounced(t('gallery.kbd.toolOff'));
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation(); // Esc puts the tool down instead of closing the editor
  };

  const resetAll = () => {
    setMode('idle');
    setTool(null);
    setDraft(null);
    setSelected(null);
    setForm(null);
    setAngle(0);
    setProc(defaultProc);
    setCrop(initialCrop(w, h));
  };
  // After a save the mode bar that held focus is gone: focus goes back to the canvas, so the
  // keyboard keeps working (Esc closes the editor) instead of falling to the page.
  const afterSave = () => {
    resetAll();
    requestAnimationFrame(() => canvas.current?.focus());
  };
  const enter = (m: Mode) => {
    // A keyboard move still waiting is saved before the image can change under it.
    const p = pending.current;
    if (p && m !== 'idle') {
      window.clearTimeout(p.timer);
      pending.current = null;
      queue.push(p.labels);
    }
    resetAll();
    setMode(m);
    if (m === 'crop') setCrop(initialCrop(w, h));
  };
  const pickTool = (tl: Tool) => {
    setSelected(null);
    if (tool === tl && mode === 'drawing') return enter('idle');
    setMode('drawing');
    setTool(tl);
  };

  const overwrite = () =>
    modal.confirm({
      title: t('gallery.overwriteTitle'),
      zIndex: 3300,
      content: t('gallery.overwriteContent'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { ...{ 'data-testid': 'gallery-overwrite-ok' } },
      onOk: async () => {
        try {
          await rotate.mutateAsync(mode === 'crop' ? { caseId, fileId: item.id, angle: 0, crop } : { caseId, fileId: item.id, angle });
          afterSave();
          onSaved();
        } catch (e) {
          showError(e);
        }
      },
    });
  const doRestore = () =>
    modal.confirm({
      title: t('gallery.restoreTitle'),
      zIndex: 3300,
      content: t('gallery.restoreContent'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await restore.mutateAsync({ caseId, fileId: item.id });
          afterSave();
          onSaved();
        } catch (e) {
          showError(e);
        }
      },
    });
  const saveAsNew = async () => {
    if (!img) return;
    const c = document.createElement('canvas');
    c.width = w;
    c.height = h;
    const ctx = c.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, w, h);
    ctx.filter = processFilter(proc);
    ctx.drawImage(img, 0, 0);
    const blob = await new Promise<Blob | null>((res) => c.toBlob(res, 'image/jpeg', Math.max(0.01, proc.compressionRatio / 100)));
    if (!blob) return;
    const name = item.name.replace(/\.[^.]+$/, '') + '-copy.jpg';
    try {
      await saveCopy.mutateAsync({ caseId, fileId: item.id, blob, name, labels });
      afterSave();
      message.success(t('gallery.savedAsNew'));
    } catch (e) {
      showError(e);
    }
  };

  const selectedLabel = labels.find((l) => l.id === selected) ?? null;
  const modeBar = mode === 'rotate' || mode === 'crop' || mode === 'process';
  const cursor = mode === 'drawing' ? 'crosshair' : mode === 'crop' ? 'move' : 'default';
  const toolLabel = useMemo(() => Object.fromEntries(TOOLS.map((x) => [x, t(`gallery.tool.${x}`)])) as Record<Tool, string>, [t]);

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width="100vw"
      style={{ top: 0, maxWidth: '100vw', padding: 0 }}
      styles={{ content: { height: '100vh', padding: 12, display: 'flex', flexDirection: 'column', borderRadius: 0 }, body: { flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0 } }}
      title={<span>{t('gallery.editorTitle')} · {item.name}</span>}
      closeIcon={<CloseOutlined aria-label={t('gallery.close')} />}
      destroyOnHidden
      keyboard={!form}
      zIndex={3100}
    >
      <Flex wrap gap={6} align="center" style={{ marginBottom: 8 }} role="toolbar" aria-label={t('gallery.tools')}>
        {TOOLS.map((tl) => (
          <Tooltip key={tl} title={`${toolLabel[tl]} (${TOOLS.indexOf(tl) + 1})`}>
            <Button icon={toolIcons[tl]} type={tool === tl && mode === 'drawing' ? 'primary' : 'default'} aria-pressed={tool === tl && mode === 'drawing'}
              aria-keyshortcuts={String(TOOLS.indexOf(tl) + 1)}
              onClick={() => pickTool(tl)} disabled={busy || modeBar} data-testid={`tool-${tl}`}>
              {toolLabel[tl]}
            </Button>
          </Tooltip>
        ))}
        <Divider type="vertical" />
        <Button icon={<ScissorOutlined />} onClick={() => enter('crop')} disabled={busy || savingLabels} type={mode === 'crop' ? 'primary' : 'default'} data-testid="mode-crop">{t('gallery.crop')}</Button>
        <Button icon={<RedoOutlined />} onClick={() => enter('rotate')} disabled={busy || savingLabels} type={mode === 'rotate' ? 'primary' : 'default'} data-testid="mode-rotate">{t('gallery.rotate')}</Button>
        <Button icon={<SlidersOutlined />} onClick={() => enter('process')} disabled={busy || savingLabels} type={mode === 'process' ? 'primary' : 'default'} data-testid="mode-process">{t('gallery.process')}</Button>
        <Divider type="vertical" />
        <Button icon={<UnorderedListOutlined />} onClick={() => setListOpen(true)}>{t('gallery.labelList', { n: labels.length })}</Button>
        <Button icon={<EditOutlined />} disabled={!selectedLabel || busy} onClick={editSelected} data-testid="label-edit">{t('gallery.labelEdit')}</Button>
        <Button icon={<DeleteOutlined />} danger disabled={!selectedLabel || busy} onClick={() => selectedLabel && deleteLabel(selectedLabel.id)}>{t('gallery.labelDelete')}</Button>
        <Divider type="vertical" />
        <Button icon={<RollbackOutlined />} onClick={doRestore} disabled={busy || savingLabels || !item.edited}>{t('gallery.restore')}</Button>
        <Button icon={<SaveOutlined />} onClick={saveAsNew} loading={saveCopy.isPending} disabled={busy || savingLabels || !img} data-testid="save-as-new">{t('gallery.saveAsNew')}</Button>
        <Divider type="vertical" />
        <Button icon={<ZoomOutOutlined />} aria-label={t('gallery.zoomOut')} onClick={() => setZoom((z) => Math.max(MIN_ZOOM, +(z / 1.25).toFixed(3)))} />
        <Typography.Text style={{ minWidth: 48, textAlign: 'center' }}>{Math.round(scale * 100)}%</Typography.Text>
        <Button icon={<ZoomInOutlined />} aria-label={t('gallery.zoomIn')} onClick={() => setZoom((z) => Math.min(MAX_ZOOM, +(z * 1.25).toFixed(3)))} />
      </Flex>
      {modeBar && (
        <Flex wrap gap={16} align="center" style={{ marginBottom: 8, padding: '6px 12px', background: '#f0f5ff', borderRadius: 6 }} data-testid="mode-bar">
          {mode === 'rotate' && (
            <Space>
              <label htmlFor="gallery-angle">{t('gallery.angle')}</label>
              <Slider style={{ width: 240 }} min={-180} max={180} step={1} value={angle} onChange={setAngle} aria-label={t('gallery.angle')} />
              <InputNumber id="gallery-angle" min={-360} max={360} step={1} precision={0} value={angle} onChange={(v) => setAngle(v ?? 0)} addonAfter="°" />
              <Button onClick={() => setAngle((a) => a - 90)}>-90°</Button>
              <Button onClick={() => setAngle((a) => a + 90)}>+90°</Button>
            </Space>
          )}
          {mode === 'crop' && <Typography.Text>{t('gallery.cropHint', { w: crop.w, h: crop.h })}</Typography.Text>}
          {mode === 'process' && (
            <>
              {(['brightness', 'saturate', 'contrast', 'compressionRatio'] as const).map((k) => (
                <Space key={k}>
                  <span id={`proc-${k}`}>{t(`gallery.proc.${k}`)}</span>
                  <Slider style={{ width: 140 }} min={k === 'compressionRatio' ? 1 : 0} max={k === 'compressionRatio' ? 100 : 200} value={proc[k]}
                    onChange={(v) => setProc((p) => ({ ...p, [k]: v }))} aria-labelledby={`proc-${k}`} />
                  <Typography.Text style={{ width: 36 }}>{proc[k]}</Typography.Text>
                </Space>
              ))}
            </>
          )}
          <Space style={{ marginLeft: 'auto' }}>
            <Button icon={<StopOutlined />} onClick={() => enter('idle')}>{t('common.cancel')}</Button>
            {mode === 'process' ? (
              <Button type="primary" icon={<SaveOutlined />} onClick={saveAsNew} loading={saveCopy.isPending}>{t('gallery.saveAsNew')}</Button>
            ) : (
              <Button type="primary" icon={<SaveOutlined />} onClick={overwrite} loading={rotate.isPending} disabled={savingLabels || (mode === 'rotate' && angle % 360 === 0)} data-testid="mode-save">
                {t('common.save')}
              </Button>
            )}
          </Space>
        </Flex>
      )}
      <div ref={stage} style={{ flex: 1, minHeight: 0, overflow: 'auto', background: '#262626', borderRadius: 6, padding: 16, display: 'flex' }}>
        {!img ? (
          <Spin style={{ margin: 'auto' }} />
        ) : (
          <canvas
            ref={canvas}
            data-testid="editor-canvas"
            data-size={`${w}x${h}`}
            role="application"
            tabIndex={0}
            aria-roledescription={t('gallery.kbd.role')}
            aria-label={t('gallery.canvasLabel', { name: item.name, n: labels.length })}
            aria-describedby="editor-keys"
            onKeyDown={onKey}
            style={{ width: w * scale, height: h * scale, margin: 'auto', cursor, flex: 'none', transform: mode === 'rotate' ? `rotate(${angle}deg)` : undefined }}
            onMouseDown={onDown}
            onMouseMove={onMove}
            onMouseUp={onUp}
            onMouseLeave={onUp}
            onWheel={(e) => setZoom((z) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z * (e.deltaY < 0 ? 1.1 : 1 / 1.1))))}
          />
        )}
      </div>
      <Typography.Text type="secondary" style={{ marginTop: 6 }}>
        {mode === 'drawing' && tool ? t('gallery.hintDraw', { tool: toolLabel[tool] }) : t('gallery.hintIdle')}
        {' '}
        <span id="editor-keys">{t('gallery.kbd.help')}</span>
      </Typography.Text>
      <div aria-live="polite" style={visuallyHidden} data-testid="editor-announce">{announced}</div>
      <LabelFormModal form={form} onChange={(values) => form && setForm({ ...form, values })} onCancel={() => setForm(null)} onSave={saveForm} toolLabel={toolLabel} />
      <Modal open={listOpen} title={t('gallery.labelInfo')} onCancel={() => setListOpen(false)} footer={null} width={640} zIndex={3200}>
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={labels}
          columns={[
            { key: 'id', dataIndex: 'id', title: '#', width: 50 },
            { key: 'tool', dataIndex: 'tool', title: t('gallery.labelTool'), width: 110, render: (x: Tool) => toolLabel[x] },
            { key: 'description', dataIndex: 'description', title: t('gallery.labelDescription'), render: (x: string) => x || '—' },
            {
              key: 'actions', title: t('common.actions'), width: 150, render: (_: unknown, l: Label) => (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => { setMode('idle'); setTool(null); setSelected(l.id); setListOpen(false); }}>{t('gallery.labelSelect')}</Button>
                  <Button type="link" size="small" danger onClick={() => deleteLabel(l.id)}>{t('common.delete')}</Button>
                </Space>
              ),
            },
          ]}
        />
      </Modal>
    </Modal>
  );
}

function Swatch({ c }: { c: string }) {
  return <span aria-hidden style={{ display: 'inline-block', width: 16, height: 16, borderRadius: 3, background: c || 'transparent', border: '1px solid #8c8c8c', verticalAlign: 'middle' }} />;
}

function LabelFormModal({ form, onChange, onCancel, onSave, toolLabel }: {
  form: { type: 'add' | 'edit'; tool: Tool; values: LabelForm } | null;
  onChange: (v: LabelForm) => void;
  onCancel: () => void;
  onSave: () => void;
  toolLabel: Record<Tool, string>;
}) {
  const { t } = useTranslation();
  if (!form) return null;
  const v = form.values;
  const set = (p: Partial<LabelForm>) => onChange({ ...v, ...p });
  const needsText = form.tool === 'font' && v.description.trim() === '';
  return (
    <Modal
      open
      zIndex={3200}
      title={`${form.type === 'add' ? t('gallery.labelAdd') : t('gallery.labelEdit')} · ${toolLabel[form.tool]}`}
      onCancel={onCancel}
      onOk={onSave}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: needsText, ...{ 'data-testid': 'label-save' } }}
      width={480}
    >
      <Form layout="vertical">
        <Form.Item label={t('gallery.labelDescription')} htmlFor="label-description" required={form.tool === 'font'}>
          <Input.TextArea id="label-description" rows={4} maxLength={200} showCount value={v.description} onChange={(e) => set({ description: e.target.value })} autoFocus />
        </Form.Item>
        <Form.Item label={<span id="label-stroke">{t('gallery.labelStroke')}</span>}>
          <Radio.Group aria-labelledby="label-stroke" value={v.strokeStyle} onChange={(e) => set({ strokeStyle: e.target.value })}>
            {STROKES.map((c) => (
              <Radio key={c} value={c} aria-label={c}><Swatch c={c} /></Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item label={<span id="label-fill">{t('gallery.labelFill')}</span>}>
          <Radio.Group aria-labelledby="label-fill" value={v.fillStyle} onChange={(e) => set({ fillStyle: e.target.value })}>
            <Radio value="">{t('gallery.noFill')}</Radio>
            {PALETTE.map((c) => (
              <Radio key={c} value={c} aria-label={c}><Swatch c={c} /></Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Space size={24}>
          <Form.Item label={t('gallery.labelLineWidth')} htmlFor="label-line-width">
            <InputNumber id="label-line-width" min={1} max={50} precision={0} value={v.lineWidth} onChange={(x) => set({ lineWidth: x ?? 2 })} />
          </Form.Item>
          <Form.Item label={t('gallery.labelFontSize')} htmlFor="label-font-size">
            <InputNumber id="label-font-size" min={8} max={200} precision={0} value={v.fontSize} onChange={(x) => set({ fontSize: x ?? 14 })} />
          </Form.Item>
        </Space>
        {needsText && <Typography.Text type="danger"><CommentOutlined /> {t('gallery.textNeeded')}</Typography.Text>}
      </Form>
    </Modal>
  );
}
