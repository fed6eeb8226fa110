// The diagnosis text an expert is writing: tracks unsaved changes, saves on
// demand, every 30 s when changed and when the screen is left; keeps a local
// copy until the server has it (so text survives a crash or a closed tab); the
// browser asks before a tab with unsaved text is closed.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface DraftFields {
  microscopic: string;
  opinion: string;
  gross_description: string;
  remark: string;
  critical_values: string;
  /** A frozen case's intra-operative verdict: '', benign, malignant or deferred (to paraffin). */
  frozen_verdict: string;
  /** The report class, one of the case's center's report_class setting, or ''. */
  report_class: string;
}

export const EMPTY_DRAFT: DraftFields = { microscopic: '', opinion: '', gross_description: '', remark: '', critical_values: '', frozen_verdict: '', report_class: '' };
/** The draft as the API takes it (the verdict is one of FROZEN_VERDICTS or empty). */
export const asInput = (v: DraftFields) => ({ ...v, frozen_verdict: v.frozen_verdict as '' | 'benign' | 'malignant' | 'deferred' });

export const DRAFT_FIELDS = Object.keys(EMPTY_DRAFT) as (keyof DraftFields)[];
export const AUTOSAVE_MS = 30_000;

export const sameDraft = (a: DraftFields, b: DraftFields) => DRAFT_FIELDS.every((k) => (a[k] ?? '') === (b[k] ?? ''));
export const pickDraft = (v: Partial<DraftFields> | undefined): DraftFields =>
  Object.fromEntries(DRAFT_FIELDS.map((k) => [k, v?.[k] ?? ''])) as unknown as DraftFields;

const backupKey = (key: string) => `tp.diagnosis.draft.${key}`;

function readBackup(key: string): DraftFields | null {
  try {
    const raw = localStorage.getItem(backupKey(key));
    return raw ? pickDraft(JSON.parse(raw) as Partial<DraftFields>) : null;
  } catch {
    return null;
  }
}

interface Options {
  /** Identifies the draft (case id and kind); the local copy is kept under it. */
  key: string;
  /** The text the server has; undefined while loading. */
  server: DraftFields | undefined;
  /** Whether the user may write (lock held); no saving otherwise. */
  enabled: boolean;
  save: (v: DraftFields) => Promise<unknown>;
  interval?: number;
  onError?: (e: unknown) => void;
}

export function useDraft({ key, server, enabled, save, interval = AUTOSAVE_MS, onError }: Options) {
  const [values, setValues] = useState<DraftFields>(EMPTY_DRAFT);
  const [saved, setSaved] = useState<DraftFields>(EMPTY_DRAFT);
  const [saving, setSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const [restored, setRestored] = useState(false);
  const loadedFor = useRef<string | null>(null);
  const lastServer = useRef<string | null>(null);
  const latest = useRef({ values, saved, enabled, save, onError });
  latest.current = { values, saved, enabled, save, onError };

  // Load the server text once per key; a newer local copy wins (unsaved work).
  const serverText = server ? JSON.stringify(server) : null;
  useEffect(() => {
    if (!server || loadedFor.current === key) return;
    loadedFor.current = key;
    lastServer.current = serverText;
    const backup = enabled ? readBackup(key) : null;
    setSaved(server);
    if (backup && !sameDraft(backup, server)) {
      setValues(backup);
      setRestored(true);
    } else {
      setValues(server);
      setRestored(false);
      localStorage.removeItem(backupKey(key));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, serverText, enabled]);

  // When the server text changes while nothing is typed (e.g. after a template
  // was saved elsewhere or a recall), follow it.
  useEffect(() => {
    if (!server || loadedFor.current !== key || lastServer.current === serverText) return;
    lastServer.current = serverText;
    const { values: v, saved: s } = latest.current;
    if (sameDraft(v, s) && !sameDraft(s, server)) {
      setSaved(server);
      setValues(server);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serverText]);

  const dirty = !sameDraft(values, saved);

  useEffect(() => {
    if (!enabled || loadedFor.current !== key) return;
    if (dirty) localStorage.setItem(backupKey(key), JSON.stringify(values));
  }, [values, dirty, enabled, key]);

  const saveNow = useCallback(async (): Promise<boolean> => {
    const { values: v, saved: s, enabled: on, save: fn, onError: err } = latest.current;
    if (!on) return false;
    if (sameDraft(v, s)) return true;
    setSaving(true);
    try {
      await fn(v);
      setSaved(v);
      setSavedAt(new Date());
      setRestored(false);
      if (sameDraft(latest.current.values, v)) localStorage.removeItem(backupKey(key));
      return true;
    } catch (e) {
      err?.(e);
      return false;
    } finally {
      setSaving(false);
    }
  }, [key]);

  // Autosave every interval while there are changes.
  useEffect(() => {
    if (!enabled) return;
    const t = setInterval(() => {
      if (!sameDraft(latest.current.values, latest.current.saved)) void saveNow();
    }, interval);
    return () => clearInterval(t);
  }, [enabled, interval, saveNow]);

  // The browser asks before the tab is closed or reloaded with unsaved text.
  useEffect(() => {
    if (!dirty) return;
    const h = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', h);
    return () => window.removeEventListener('beforeunload', h);
  }, [dirty]);

  // Leaving the screen (menu, another case) with unsaved text saves it on the
  // way out; if that fails the local copy is still there for next time.
  // What the last commit showed, read by the clean-up below, which runs before
  // this ref is updated: the text and save function belong to the old key.
  const committed = useRef({ values, saved, enabled, save, loaded: false });
  useEffect(() => {
    committed.current = { values, saved, enabled, save, loaded: loadedFor.current === key };
  });
  useEffect(
    () => () => {
      const { values: v, saved: s, enabled: on, save: fn, loaded } = committed.current;
      if (on && loaded && !sameDraft(v, s)) void Promise.resolve(fn(v)).then(() => localStorage.removeItem(backupKey(key)), () => undefined);
    },
    [key],
  );

  const setField = useCallback((k: keyof DraftFields, v: string) => setValues((cur) => ({ ...cur, [k]: v })), []);
  const insert = useCallback(
    (patch: Partial<DraftFields>, mode: 'replace' | 'append' = 'replace') =>
      setValues((cur) => {
        const next = { ...cur };
        for (const k of DRAFT_FIELDS) {
          const add = patch[k];
          if (!add) continue;
          next[k] = mode === 'append' && cur[k] ? `${cur[k]}\n${add}` : add;
        }
        return next;
      }),
    [],
  );
  const discard = useCallback(() => {
    setValues(latest.current.saved);
    localStorage.removeItem(backupKey(key));
    setRestored(false);
  }, [key]);

  return { values, setField, insert, dirty, saving, savedAt, saveNow, restored, discard };
}
