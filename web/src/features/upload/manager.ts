// The browser's slide upload queue: tus resumable uploads (resume after a dropped
// connection, and after a reload once the user re-selects the same file), a SHA-256
// computed in a worker and sent as metadata, 3 files at a time.
import { useSyncExternalStore } from 'react';
import * as tus from 'tus-js-client';
import { session } from '../../lib/session';
import { languageStore } from '../../lib/prefs';
import { transition, type UploadEvent, type UploadState, type UserAction } from './machine';

export const ENDPOINT = '/api/uploads/';
export const CONCURRENCY = 3;
const CHUNK = 16 * 1024 * 1024;

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  file: File | null;
  state: UploadState;
  /** Starts by itself when a slot is free (new files); a stopped one waits for "start". */
  queued: boolean;
  sent: number;
  speed: number;
  hashing: number | null;
  sha256?: string;
  consultId?: number;
  error?: string;
  /** Left unfinished before a reload: the user must re-select the same file. */
  needsFile: boolean;
  urlStorageKey?: string;
  uploadUrl?: string;
}

interface Live {
  upload?: tus.Upload;
  worker?: Worker;
  lastAt: number;
  lastBytes: number;
}

let items: UploadItem[] = [];
const live = new Map<string, Live>();
const listeners = new Set<() => void>();
let seq = 0;

function emit() {
  items = [...items];
  listeners.forEach((l) => l());
}
const find = (key: string) => items.find((i) => i.key === key);
function patch(key: string, p: Partial<UploadItem>) {
  items = items.map((i) => (i.key === key ? { ...i, ...p } : i));
  emit();
}
function fire(key: string, ev: UploadEvent, p: Partial<UploadItem> = {}): boolean {
  const it = find(key);
  const next = it && transition(it.state, ev);
  if (!it || !next) return false;
  patch(key, { ...p, state: next });
  return true;
}

const sha256InWorker = (key: string, file: File) =>
  new Promise<string>((resolve, reject) => {
    const w = new Worker(new URL('./sha256.worker.ts', import.meta.url), { type: 'module' });
    const l = live.get(key);
    if (l) l.worker = w;
    w.onmessage = (e: MessageEvent<{ progress?: number; done?: string; error?: string }>) => {
      if (e.data.progress !== undefined) patch(key, { hashing: e.data.progress });
      if (e.data.done) {
        w.terminate();
        resolve(e.data.done);
      }
      if (e.data.error) {
        w.terminate();
        reject(new Error(e.data.error));
      }
    };
    w.onerror = (e) => {
      w.terminate();
      reject(new Error(e.message || 'checksum failed'));
    };
    w.postMessage({ file });
  });

function headers(): Record<string, string> {
  const h: Record<string, string> = { 'user-language': languageStore.get() };
  const t = session.token();
  if (t) h.Authorization = `Bearer ${t}`;
  return h;
}

function serverMessage(err: Error): string {
  const res = (err as tus.DetailedError).originalResponse;
  const body = res?.getBody?.();
  if (body) {
    try {
      const j = JSON.parse(body) as { message?: string; detail?: string };
      if (j.message || j.detail) return String(j.message || j.detail);
    } catch {
      if (body.length < 300) return body.trim();
    }
  }
  return err.message.split('\n')[0];
}

async function begin(key: string) {
  const it = find(key);
  if (!it?.file || !fire(key, 'start', { error: undefined, queued: false })) return;
  const file = it.file;
  const l: Live = { lastAt: performance.now(), lastBytes: 0 };
  live.set(key, l);
  try {
    let sha = it.sha256;
    if (!sha) {
      patch(key, { hashing: 0 });
      sha = await sha256InWorker(key, file);
      if (find(key)?.state !== 'uploading') return finishStop(key);
      patch(key, { sha256: sha, hashing: null });
    }
    const metadata: Record<string, string> = { filename: file.name, filetype: file.type || 'application/octet-stream', sha256: sha };
    if (it.consultId) metadata.consult_id = String(it.consultId);
    const upload = new tus.Upload(file, {
      endpoint: ENDPOINT,
      chunkSize: CHUNK,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000, 30000, 60000],
      metadata,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onBeforeRequest: (req) => {
        for (const [k, v] of Object.entries(headers())) req.setHeader(k, v);
      },
      onProgress: (sent) => {
        const now = performance.now();
        const dt = (now - l.lastAt) / 1000;
        if (dt >= 0.5) {
          const inst = (sent - l.lastBytes) / dt;
          const prev = find(key)?.speed ?? 0;
          l.lastAt = now;
          l.lastBytes = sent;
          patch(key, { sent, speed: prev ? prev * 0.6 + inst * 0.4 : inst });
        } else patch(key, { sent });
      },
      onSuccess: () => {
        live.delete(key);
        fire(key, 'done', { sent: file.size, speed: 0, uploadUrl: upload.url ?? undefined });
        pump();
      },
      onError: (err) => {
        live.delete(key);
        fire(key, 'error', { error: serverMessage(err), speed: 0 });
        pump();
      },
    });
    l.upload = upload;
    const previous = await upload.findPreviousUploads();
    if (previous.length) upload.resumeFromPreviousUpload(previous[0]);
    if (find(key)?.state !== 'uploading') return finishStop(key);
    upload.start();
  } catch (e) {
    live.delete(key);
    fire(key, 'error', { error: e instanceof Error ? e.message : String(e), hashing: null });
    pump();
  }
}

function finishStop(key: string) {
  live.delete(key);
  if (find(key)?.state === 'stopping') fire(key, 'stopped', { speed: 0, hashing: null });
  pump();
}

/** Starts queued files while fewer than CONCURRENCY are running. */
function pump() {
  const running = items.filter((i) => i.state === 'uploading' || i.state === 'stopping').length;
  let free = CONCURRENCY - running;
  for (const it of items) {
    if (free <= 0) break;
    if (it.state === 'idle' && it.queued && it.file) {
      free--;
      void begin(it.key);
    }
  }
}

export const uploads = {
  get: () => items,
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  add(files: File[], consultId?: number) {
    for (const file of files) {
      // A file matching an unfinished upload from before a reload resumes it.
      const waiting = items.find((i) => i.needsFile && i.name === file.name && i.size === file.size);
      if (waiting) {
        patch(waiting.key, { file, needsFile: false, queued: true });
        continue;
      }
      items = [...items, { key: `u${++seq}-${Date.now()}`, name: file.name, size: file.size, file, state: 'idle', queued: true, sent: 0, speed: 0, hashing: null, consultId, needsFile: false }];
    }
    emit();
    pump();
  },
  /** Attaches the re-selected file to an upload left unfinished before a reload. */
  reattach(key: string, file: File): boolean {
    const it = find(key);
    if (!it || it.name !== file.name || it.size !== file.size) return false;
    patch(key, { file, needsFile: false, queued: true });
    pump();
    return true;
  },
  act(key: string, action: UserAction) {
    const it = find(key);
    if (!it || !transition(it.state, action)) return;
    const l = live.get(key);
    switch (action) {
      case 'start':
        patch(key, { queued: true });
        pump();
        // no free slot: it waits its turn
        return;
      case 'restart':
        if (it.state === 'canceled') patch(key, { sent: 0, sha256: it.sha256 });
        patch(key, { state: 'idle', queued: true, error: undefined });
        pump();
        return;
      case 'stop':
        fire(key, 'stop');
        if (l?.worker) {
          l.worker.terminate();
          return finishStop(key);
        }
        if (l?.upload) void l.upload.abort(false).finally(() => finishStop(key));
        return;
      case 'cancel':
        l?.worker?.terminate();
        live.delete(key);
        fire(key, 'cancel', { speed: 0, hashing: null, sent: 0, queued: false });
        if (l?.upload) void l.upload.abort(true).catch(() => undefined);
        else if (it.urlStorageKey) void forget(it);
        pump();
    }
  },
  remove(key: string) {
    const it = find(key);
    if (!it || it.state === 'uploading' || it.state === 'stopping') return;
    if (it.needsFile) void forget(it);
    items = items.filter((i) => i.key !== key);
    emit();
  },
  clearFinished() {
    items = items.filter((i) => i.state !== 'uploaded' && i.state !== 'canceled');
    emit();
  },
};

async function forget(it: UploadItem) {
  const storage = tus.defaultOptions.urlStorage;
  if (it.uploadUrl) await tus.Upload.terminate(it.uploadUrl, { headers: headers() } as tus.UploadOptions).catch(() => undefined);
  if (it.urlStorageKey && storage) await storage.removeUpload(it.urlStorageKey).catch(() => undefined);
}

/** Lists uploads left unfinished before a reload (tus keeps their URLs in local storage). */
export async function restoreUnfinished(): Promise<void> {
  const storage = tus.defaultOptions.urlStorage;
  if (!storage) return;
  const prev = await storage.findAllUploads().catch(() => []);
  let added = false;
  for (const p of prev) {
    if (items.some((i) => i.urlStorageKey === p.urlStorageKey || (p.uploadUrl && i.uploadUrl === p.uploadUrl))) continue;
    const md = (p.metadata ?? {}) as Record<string, string>;
    items = [
      ...items,
      {
        key: `r-${p.urlStorageKey}`,
        name: md.filename ?? '?',
        size: p.size ?? 0,
        file: null,
        state: 'idle',
        queued: false,
        sent: 0,
        speed: 0,
        hashing: null,
        sha256: md.sha256,
        consultId: md.consult_id ? Number(md.consult_id) : undefined,
        needsFile: true,
        urlStorageKey: p.urlStorageKey,
        uploadUrl: p.uploadUrl ?? undefined,
      },
    ];
    added = true;
  }
  if (added) emit();
}

export function useUploads(): UploadItem[] {
  return useSyncExternalStore(uploads.subscribe, uploads.get, uploads.get);
}

// Leaving the page while files are uploading asks first.
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', (e) => {
    if (items.some((i) => i.state === 'uploading')) e.preventDefault();
  });
}
