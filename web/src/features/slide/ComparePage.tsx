import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSearchParams } from '../../lib/searchParams';
import { Button, Result, Spin, Switch, Tooltip, Typography } from 'antd';
import { ArrowLeftOutlined, HomeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api/errors';
import { recordView, useViewerInfo } from './api';
import { MagnificationBar, RotationControl, ScaleBar } from './controls';
import { effectiveObjective } from './geometry';
import type { Viewer } from './osd';
import { MeetingBar } from './meeting/MeetingBar';
import { useViewerSync, type Pane } from './viewer/useViewerSync';
import { SlideCanvas } from './SlideCanvas';
import { MAX_SPLIT, MIN_SPLIT, splitCountOk } from './SlideStrip';

/** Parses ?ids=1,2,3 into distinct positive ids. */
export function parseIds(raw: string | null): number[] {
  const out: number[] = [];
  for (const s of (raw ?? '').split(',')) {
    const n = Number(s.trim());
    if (Number.isInteger(n) && n > 0 && !out.includes(n)) out.push(n);
  }
  return out;
}

function ComparePane({ id, onViewer, onEnter }: { id: number; onViewer: (id: number, p: Pane | null) => void; onEnter: () => void }) {
  const { t } = useTranslation();
  const info = useViewerInfo(id, { live: true });
  const [viewer, setViewer] = useState<Viewer | null>(null);
  const objective = info.data ? effectiveObjective(info.data.objective, info.data.mpp) : 40;
  useEffect(() => {
    if (info.data) void recordView(id);
  }, [id, info.data]);
  const set = useCallback(
    (v: Viewer | null) => {
      setViewer(v);
      onViewer(id, v ? { viewer: v, objective } : null);
    },
    [id, objective, onViewer],
  );
  return (
    <div style={{ position: 'relative', minHeight: 0, minWidth: 0, border: '1px solid #e5e7eb', display: 'flex', flexDirection: 'column' }} onPointerEnter={onEnter} onWheel={onEnter} onPointerDown={onEnter}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '4px 8px', background: '#fafbfc', borderBottom: '1px solid #e5e7eb' }}>
        <Typography.Text ellipsis strong style={{ flex: 1 }}>
          {info.data?.filename ?? `#${id}`}
        </Typography.Text>
        <MagnificationBar viewer={viewer} objective={objective} compact />
        <RotationControl viewer={viewer} />
        <Button size="small" icon={<HomeOutlined />} onClick={() => viewer?.viewport.goHome()} aria-label={t('slide.home')} />
      </div>
      <div style={{ position: 'relative', flex: 1 }}>
        {info.isLoading && <Spin style={{ position: 'absolute', inset: 0, margin: 'auto', height: 40 }} />}
        {info.isError && (
          <Result
            status={info.error instanceof ApiError && info.error.status === 409 ? 'warning' : 'error'}
            title={info.error instanceof ApiError && info.error.status === 409 ? t('slide.notViewable') : t('slide.loadFailed')}
            subTitle={info.error?.message}
          />
        )}
        {info.data && <SlideCanvas info={info.data} onViewer={set} navigator={false}>{(v) => <ScaleBar viewer={v} mpp={info.data?.mpp ?? 0} />}</SlideCanvas>}
      </div>
    </div>
  );
}

/**
 * /slide/compare?ids=1,2,3 — 2 to 4 slides side by side with synchronised pan, zoom and
 * rotation; with &case=…&meeting=… the split view of a live meeting (mirrored both ways).
 */
export default function ComparePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const ids = parseIds(search.get('ids'));
  const meetingId = Number(search.get('meeting')) || null;
  const caseId = Number(search.get('case')) || null;
  const [sync, setSync] = useState(true);
  const { setPane, lead } = useViewerSync(sync);
  const [viewers, setViewers] = useState<Record<number, Viewer>>({});
  const onViewer = useCallback(
    (id: number, p: Pane | null) => {
      setPane(id, p);
      setViewers(({ [id]: _, ...others }) => (p ? { ...others, [id]: p.viewer } : others));
    },
    [setPane],
  );
  const idsKey = ids.join(',');
  // The panes open, in the split view's order (the meeting sends and follows each).
  const panes = useMemo(
    () => parseIds(idsKey).flatMap((id) => (viewers[id] ? [{ slideId: id, viewer: viewers[id] }] : [])),
    [idsKey, viewers],
  );

  const back = () => (window.history.length > 1 ? navigate(-1) : navigate('/manage'));

  if (!splitCountOk(ids.length)) {
    return (
      <Result
        status="warning"
        title={t('slide.splitCount')}
        subTitle={t('slide.splitCountHint', { min: MIN_SPLIT, max: MAX_SPLIT, count: ids.length })}
        extra={<Button onClick={back}>{t('slide.back')}</Button>}
        data-testid="split-count"
      />
    );
  }
  const cols = ids.length === 3 ? 3 : 2;
  const rows = ids.length === 2 ? 1 : ids.length === 3 ? 1 : 2;
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }} data-testid="slide-compare">
      <div style={{ height: 48, flex: 'none', display: 'flex', alignItems: 'center', gap: 12, padding: '0 12px', borderBottom: '1px solid #e5e7eb' }}>
        <Tooltip title={t('slide.back')}>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={back} aria-label={t('slide.back')} />
        </Tooltip>
        <Typography.Text strong>{t('slide.compareTitle', { count: ids.length })}</Typography.Text>
        <div style={{ flex: 1 }} />
        <Switch checked={sync} onChange={setSync} aria-label={t('slide.sync')} data-testid="sync" /> <Typography.Text>{t('slide.sync')}</Typography.Text>
      </div>
      <div style={{ flex: 1, position: 'relative', display: 'grid', gridTemplateColumns: `repeat(${cols}, 1fr)`, gridTemplateRows: `repeat(${rows}, 1fr)`, minHeight: 0 }}>
        {ids.map((id) => (
          <ComparePane key={id} id={id} onViewer={onViewer} onEnter={() => lead(id)} />
        ))}
        {meetingId && caseId && panes[0]?.slideId === ids[0] && (
          // Every pane's view travels; a followed one is applied pane by pane, none leading the others.
          <MeetingBar meetingId={meetingId} caseId={caseId} slideIds={ids} panes={panes} onFollow={() => lead(null)} />
        )}
      </div>
    </div>
  );
}
