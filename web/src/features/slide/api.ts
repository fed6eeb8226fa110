import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { ApiError, toApiError, unwrap } from '../../lib/api/errors';
import type { ApiData } from '../../lib/api/types';
import { session } from '../../lib/session';
import { viewerKey } from '../../lib/slideViewer';
import { languageStore } from '../../lib/prefs';

export { useViewerInfo, type ViewerInfo } from '../../lib/slideViewer';
export type CaseSlide = NonNullable<ApiData<'/api/consultation/resources/{id}/slides', 'get'>>[number];

export const slideKeys = {
  viewer: viewerKey,
  caseSlides: (caseId: number) => ['slide', 'case', caseId] as const,
};

/** Records that the user opened the slide (unviewed slides prompt before sign). */
export async function recordView(id: number): Promise<void> {
  try {
    await api.POST('/api/slides/{id}/view', { params: { path: { id } } });
  } catch {
    /* recording a view never blocks reading */
  }
}

export function useCaseSlides(caseId: number | null) {
  return useQuery({
    queryKey: slideKeys.caseSlides(caseId ?? 0),
    queryFn: async () => unwrap(await api.GET('/api/consultation/resources/{id}/slides', { params: { path: { id: caseId! } } })) ?? [],
    enabled: caseId !== null && caseId > 0,
    staleTime: 60_000,
  });
}

/** Uploads an image (multipart field `file`, spec 1 §7) and returns its URL. */
export async function uploadImage(blob: Blob, filename: string): Promise<string> {
  const fd = new FormData();
  fd.append('file', blob, filename);
  const headers: Record<string, string> = { 'user-language': languageStore.get() };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch('/api/common/upload', { method: 'POST', body: fd, headers });
  const body: unknown = await res.json().catch(() => ({}));
  if (!res.ok) throw toApiError(res.status, body, 'Upload failed');
  const url = (body as { data?: { url?: string } }).data?.url;
  if (!url) throw new ApiError(res.status, 'Upload failed');
  return url;
}
