// The signed URLs a slide is viewed with, shared by every screen that shows slides
// (viewer, case workspace thumbnails, uploaded list).
import { useQuery } from '@tanstack/react-query';
import { api } from './api/client';
import { ApiError, unwrap } from './api/errors';
import type { ApiData } from './api/types';

export type ViewerInfo = ApiData<'/api/slides/{id}/viewer', 'get'>;

export const viewerKey = (id: number) => ['slide', 'viewer', id] as const;

/** Signed Deep Zoom / thumbnail / label URLs of a slide; a 409 carries the reason it cannot be shown. */
export function useViewerInfo(id: number | null) {
  return useQuery<ViewerInfo, ApiError>({
    queryKey: viewerKey(id ?? 0),
    queryFn: async () => unwrap(await api.GET('/api/slides/{id}/viewer', { params: { path: { id: id! } } })),
    enabled: id !== null && id > 0,
    // The URLs last 12 hours; refetch well before, never on focus (it would reload the tiles).
    staleTime: 60 * 60_000,
    refetchOnWindowFocus: false,
    retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 2,
  });
}
