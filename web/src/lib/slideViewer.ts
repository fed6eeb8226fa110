// The signed URLs a slide is viewed with, shared by every screen that shows slides
// (viewer, case workspace thumbnails, uploaded list).
import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from './api/client';
import { ApiError, unwrap } from './api/errors';
import type { ApiData } from './api/types';

export type ViewerInfo = ApiData<'/api/slides/{id}/viewer', 'get'>;
export type SlideGrant = ApiData<'/api/slides/{id}/grant', 'post'>;

export const viewerKey = (id: number) => ['slide', 'viewer', id] as const;

/** The server's grant lasts 10 minutes: renew well before, refetch when stale. */
export const RENEW_EVERY_MS = 4 * 60_000;
const STALE_MS = 5 * 60_000;

/**
 * Signed Deep Zoom / thumbnail / label URLs of a slide; a 409 carries the reason it cannot be shown.
 * With `live`, the grant behind the URLs is renewed while the caller is mounted (an open viewer),
 * so tiles keep loading; the URLs stay the same, and the browser's cached tiles with them.
 */
export function useViewerInfo(id: number | null, opts: { live?: boolean } = {}) {
  const q = useQuery<ViewerInfo, ApiError>({
    queryKey: viewerKey(id ?? 0),
    queryFn: async () => unwrap(await api.GET('/api/slides/{id}/viewer', { params: { path: { id: id! } } })),
    enabled: id !== null && id > 0,
    // Refetched when stale on the next mount (it renews the grant); never on focus (it would reload the tiles).
    staleTime: STALE_MS,
    refetchOnWindowFocus: false,
    retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 2,
  });
  useGrantRenewal(opts.live && q.isSuccess ? id : null);
  return q;
}

// What counts as the user still looking at the slide.
const ACTIVITY = ['pointerdown', 'pointermove', 'wheel', 'keydown'] as const;

/**
 * Renews the grant every few minutes while the user works in the viewer. A viewer left
 * untouched renews nothing, so it does not keep the session from its idle limit; the first
 * touch after a quiet spell renews at once.
 */
export function useGrantRenewal(id: number | null) {
  const qc = useQueryClient();
  useEffect(() => {
    if (id === null || id <= 0) return;
    let active = false;
    let renewedAt = Date.now();
    const renew = () => {
      active = false;
      renewedAt = Date.now();
      void renewGrant(qc, id);
    };
    const onActivity = () => {
      active = true;
      if (Date.now() - renewedAt > RENEW_EVERY_MS) renew();
    };
    const timer = window.setInterval(() => active && renew(), RENEW_EVERY_MS);
    for (const e of ACTIVITY) window.addEventListener(e, onActivity, { capture: true, passive: true });
    return () => {
      window.clearInterval(timer);
      for (const e of ACTIVITY) window.removeEventListener(e, onActivity, { capture: true });
    };
  }, [qc, id]);
}

/** Extends the grant; when the server signs with a new key, the viewer reloads with the new URLs. */
export async function renewGrant(qc: QueryClient, id: number): Promise<void> {
  let g: SlideGrant;
  try {
    g = unwrap(await api.POST('/api/slides/{id}/grant', { params: { path: { id } } }));
  } catch {
    return; // an ended session shows itself through the other calls; the next tick tries again
  }
  const info = qc.getQueryData<ViewerInfo>(viewerKey(id));
  if (!info) return;
  if (sameGrant(info, g)) {
    qc.setQueryData<ViewerInfo>(viewerKey(id), { ...info, expires_at: g.expires_at });
  } else {
    await qc.invalidateQueries({ queryKey: viewerKey(id) });
  }
}

/** Whether the viewer's URLs are those of grant g. */
export function sameGrant(info: Pick<ViewerInfo, 'dzi_url'>, g: Pick<SlideGrant, 'url'>): boolean {
  return info.dzi_url.startsWith(`${g.url}/`);
}
