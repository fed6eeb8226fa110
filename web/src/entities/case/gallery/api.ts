// The gallery API: a case's image attachments, their order, checks and
// labels, the images themselves (fetched with the session, as object URLs)
// and the edits (rotate and crop, restore, save a processed copy).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api/client';
import { ApiError, toApiError, unwrap } from '../../../lib/api/errors';
import type { ApiData } from '../../../lib/api/types';
import { session } from '../../../lib/session';
import { languageStore } from '../../../lib/prefs';
import { parseLabels, serializeLabels, type Label } from './labels';

type Item<T> = T extends readonly (infer I)[] ? I : never;
export type GalleryData = ApiData<'/api/consultation/resources/{id}/gallery', 'get'>;
type RawImage = Item<GalleryData['items']>;
export type GalleryImage = Omit<RawImage, 'labels' | 'version'> & { labels: Label[]; version: string };

export const galleryKeys = {
  all: ['gallery'] as const,
  gallery: (caseId: number) => ['gallery', caseId] as const,
  attachment: (id: number) => ['gallery', 'attachment', id] as const,
  image: (path: string, version: string) => ['gallery', 'image', path, version] as const,
};

/** An image's version: it changes when the image is rotated, cropped or restored. */
function withLabels(i: RawImage): GalleryImage {
  return { ...i, labels: parseLabels(i.labels), version: String(i.version) };
}

export function useGallery(caseId: number) {
  return useQuery({
    queryKey: galleryKeys.gallery(caseId),
    queryFn: async () => {
      const g = unwrap(await api.GET('/api/consultation/resources/{id}/gallery', { params: { path: { id: caseId } } }));
      return { ...g, items: (g.items ?? []).map(withLabels) };
    },
    enabled: caseId > 0,
  });
}

export function useAttachment(id: number) {
  return useQuery({
    queryKey: galleryKeys.attachment(id),
    queryFn: async () => withLabels(unwrap(await api.GET('/api/gallery/attachment/{id}', { params: { path: { id } } }))),
    enabled: id > 0,
    retry: false,
  });
}

/** Fetches an image with the session and returns it as a Blob. */
export async function fetchImage(path: string): Promise<Blob> {
  const headers: Record<string, string> = { 'user-language': languageStore.get() };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  // Thumbnails are kept by the browser (their addresses change with the image; the server sends ETag and
  // Cache-Control); whole images are fetched each time.
  const thumb = /[?&]thumb=true|\/thumb$/.test(path);
  const res = await fetch(path, { headers, cache: thumb ? 'default' : 'no-store' });
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => ({})), 'Image unavailable');
  return res.blob();
}

/** An object URL of an image (revoked when no longer used); null until loaded. */
export function useImageUrl(path: string | null, version: string, enabled = true): string | null {
  const q = useQuery({
    queryKey: galleryKeys.image(path ?? '', version),
    queryFn: () => fetchImage(path!),
    enabled: enabled && !!path,
    staleTime: Infinity,
    gcTime: 60_000,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!q.data) return;
    const u = URL.createObjectURL(q.data);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [q.data]);
  return q.data ? url : null;
}

function useGalleryMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: galleryKeys.all }) });
}

const imagePath = (caseId: number, fileId: number) => ({ params: { path: { id: caseId, file_id: fileId } } });

export const useArrange = () =>
  useGalleryMutation(async ({ caseId, items }: { caseId: number; items: { id: number; check: boolean }[] }) =>
    unwrap(await api.PUT('/api/consultation/resources/{id}/gallery', { params: { path: { id: caseId } }, body: { items } })),
  );

export const useSaveLabels = () =>
  useGalleryMutation(async ({ caseId, fileId, labels }: { caseId: number; fileId: number; labels: Label[] }) =>
    unwrap(await api.PUT('/api/gallery/{id}/{file_id}/labels', { ...imagePath(caseId, fileId), body: { labels: serializeLabels(labels) } })),
  );

export const useDeleteImage = () =>
  useGalleryMutation(async ({ caseId, fileId }: { caseId: number; fileId: number }) =>
    unwrap(await api.DELETE('/api/gallery/{id}/{file_id}', imagePath(caseId, fileId))),
  );

export const useRestore = () =>
  useGalleryMutation(async ({ caseId, fileId }: { caseId: number; fileId: number }) =>
    unwrap(await api.POST('/api/gallery/{id}/{file_id}/restore', imagePath(caseId, fileId))),
  );

export interface CropRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const useRotate = () =>
  useGalleryMutation(async (b: { caseId: number; fileId: number; angle: number; crop?: CropRect }) =>
    unwrap(await api.POST('/api/rotate_image', { body: { consult_id: b.caseId, id: b.fileId, angle: b.angle, crop: b.crop } })),
  );

/** Saves a processed JPEG as a new image of the case, labels carried over, in one request (a refused save stores nothing). */
export const useSaveCopy = () =>
  useGalleryMutation(async ({ caseId, fileId, blob, name, labels }: { caseId: number; fileId: number; blob: Blob; name: string; labels: Label[] }) => {
    const fd = new FormData();
    fd.append('file', new File([blob], name, { type: 'image/jpeg' }));
    fd.append('labels', JSON.stringify(serializeLabels(labels)));
    const headers: Record<string, string> = { 'user-language': languageStore.get() };
    const token = session.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(`/api/gallery/${caseId}/${fileId}/copy`, { method: 'POST', body: fd, headers });
    const body: unknown = await res.json().catch(() => ({}));
    if (!res.ok) throw toApiError(res.status, body, 'Save failed');
    const saved = (body as { data?: RawImage }).data;
    if (!saved) throw new ApiError(res.status, 'Save failed');
    return saved;
  });
