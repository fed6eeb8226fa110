// File transfer outside openapi-fetch: uploads need progress events (XMLHttpRequest)
// and the charge export returns a binary workbook.
import { session } from '../../lib/session';
import { languageStore } from '../../lib/prefs';
import { toApiError } from '../../lib/api/errors';
import { downloadBlob } from '../../lib/download';
import type { ApiListQuery } from '../../lib/list/query';
import type { UploadedFile } from './api';

export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;

function authHeaders(): Record<string, string> {
  const h: Record<string, string> = { 'user-language': languageStore.get() };
  const token = session.token();
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

/** Uploads one file as multipart field `file`, reporting progress 0–100. */
export function uploadFile(file: File, onProgress: (percent: number) => void, signal?: AbortSignal): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/common/upload');
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onerror = () => reject(new Error('network'));
    xhr.onabort = () => reject(new Error('aborted'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300 && body && typeof body === 'object' && 'data' in body) resolve((body as { data: UploadedFile }).data);
      else reject(toApiError(xhr.status, body, xhr.statusText || 'Upload failed'));
    };
    signal?.addEventListener('abort', () => xhr.abort());
    const fd = new FormData();
    fd.append('file', file);
    xhr.send(fd);
  });
}

/** Downloads the filtered charge list as an .xlsx file. */
export async function exportCharges(query: Partial<ApiListQuery>, filename: string): Promise<void> {
  const body: Record<string, unknown> = { page: 1, page_size: 10000 };
  if (query.search) body.search = query.search;
  if (query.sort_by) body.sort_by = JSON.parse(query.sort_by);
  if (query.params) body.params = JSON.parse(query.params);
  if (query.constraints) body.constraints = JSON.parse(query.constraints);
  const res = await fetch('/api/charge/export', { method: 'POST', headers: { ...authHeaders(), 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null), res.statusText);
  downloadBlob(await res.blob(), filename);
}

export { formatSize } from '../../entities/case/size';
