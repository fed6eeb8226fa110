// The caller's annotations of a slide, kept on the server (GET/PUT
// /api/slides/{id}/annotations): loaded with the others' sets (read-only),
// saved automatically a moment after each change, flushed when the slide
// changes or the page goes away.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import type { ApiData } from '../../lib/api/types';
import { generateAnnotations, type Annotation } from './annotations';

export type AnnotationsData = ApiData<'/api/slides/{id}/annotations', 'get'>;
export interface OtherSet {
  userId: number;
  name: string;
  labels: Annotation[];
  updatedAt: string | null;
}
export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'error';

/** Quiet time after the last change before the set is saved. */
export const AUTOSAVE_MS = 800;
const RETRY_MS = 5000;

const toAnnotations = (labels: readonly unknown[] | null | undefined) => (labels ?? []) as Annotation[];

/**
 * Others' labels drawn next to one's own: ids are made negative and unique so
 * they never collide with (or get selected as) one's own.
 */
export function readonlyLabels(others: readonly OtherSet[], hidden: ReadonlySet<number>): Annotation[] {
  const out: Annotation[] = [];
  let id = -1;
  for (const o of others) {
    if (hidden.has(o.userId)) continue;
    for (const a of o.labels) out.push({ ...a, id: id-- });
  }
  return out;
}

export function useServerAnnotations(slideId: number, enabled: boolean, bench: { n: number; width: number; height: number } | null) {
  const [annotations, setAnnotations] = useState<Annotation[]>([]);
  const [others, setOthers] = useState<OtherSet[]>([]);
  const [loadedFor, setLoadedFor] = useState(0);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const [saveError, setSaveError] = useState<string | null>(null);
  const fromServer = useRef<Annotation[] | null>(null);
  const pending = useRef<{ id: number; labels: Annotation[] } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inflight = useRef<Promise<void> | null>(null);

  const flush = useCallback(async (): Promise<void> => {
    clearTimeout(timer.current);
    if (inflight.current) {
      await inflight.current;
      return flush();
    }
    const p = pending.current;
    if (!p) return;
    pending.current = null;
    setSaveState('saving');
    inflight.current = (async () => {
      try {
        unwrap(await api.PUT('/api/slides/{id}/annotations', { params: { path: { id: p.id } }, body: { labels: p.labels } }));
        setSaveError(null);
        if (!pending.current) setSaveState('saved');
      } catch (e) {
        setSaveState('error');
        setSaveError(e instanceof Error ? e.message : String(e));
        // A refusal (4xx) waits for the next edit; a failure is retried.
        const retry = !(e instanceof ApiError && e.status >= 400 && e.status < 500);
        if (!pending.current) {
          pending.current = p;
          if (retry) timer.current = setTimeout(() => void flush(), RETRY_MS);
        }
      } finally {
        inflight.current = null;
      }
    })();
    await inflight.current;
  }, []);

  // Load on slide change; whatever is pending for the previous slide is saved first.
  useEffect(() => {
    if (!enabled || !(slideId > 0)) return;
    let live = true;
    setLoadError(null);
    setSaveState('idle');
    void (async () => {
      await flush().catch(() => undefined);
      try {
        const d = unwrap(await api.GET('/api/slides/{id}/annotations', { params: { path: { id: slideId } } }));
        if (!live) return;
        const mine = bench ? generateAnnotations(bench.n, bench.width, bench.height) : toAnnotations(d.mine.labels);
        fromServer.current = mine;
        setAnnotations(mine);
        setOthers((d.others ?? []).map((o) => ({ userId: o.user_id, name: o.name, labels: toAnnotations(o.labels), updatedAt: o.updated_at ?? null })));
        setLoadedFor(slideId);
      } catch (e) {
        if (live) setLoadError(e instanceof Error ? e.message : String(e));
      }
    })();
    return () => {
      live = false;
      void flush();
    };
  }, [slideId, enabled, bench, flush]);

  // Autosave, debounced.
  useEffect(() => {
    if (loadedFor !== slideId || bench || annotations === fromServer.current) return;
    pending.current = { id: slideId, labels: annotations };
    setSaveState('pending');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), AUTOSAVE_MS);
  }, [annotations, loadedFor, slideId, bench, flush]);

  // Leaving the page with unsaved changes: save now and ask the browser to wait.
  useEffect(() => {
    const onLeave = (e: BeforeUnloadEvent) => {
      if (!pending.current && !inflight.current) return;
      void flush();
      e.preventDefault();
    };
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [flush]);

  // The others' sets read again (someone in a live meeting saved theirs); one's own stay as they are.
  const reloadOthers = useCallback(async () => {
    if (!enabled || !(slideId > 0) || bench) return;
    try {
      const d = unwrap(await api.GET('/api/slides/{id}/annotations', { params: { path: { id: slideId } } }));
      setOthers((d.others ?? []).map((o) => ({ userId: o.user_id, name: o.name, labels: toAnnotations(o.labels), updatedAt: o.updated_at ?? null })));
    } catch {
      /* the next push or opening reads them */
    }
  }, [slideId, enabled, bench]);

  return { annotations, setAnnotations, others, reloadOthers, loaded: loadedFor === slideId, loadError, saveState, saveError, flush };
}
