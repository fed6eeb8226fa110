// Screenshots saved to a case from the slide viewer, and their use in the report.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { toApiError, unwrap } from '../../lib/api/errors';
import type { ApiBody, ApiData } from '../../lib/api/types';

type Item<T> = T extends readonly (infer I)[] ? I : never;
export type Shot = Item<ApiData<'/api/diagnosis/{id}/shots', 'get'>>;
export type ShotUpdate = ApiBody<'/api/diagnosis/{id}/shots/{shot_id}', 'patch'>;

export const shotKeys = { ofCase: (id: number) => ['diagnosis', 'shots', id] as const };

export function useShots(id: number) {
  return useQuery({ queryKey: shotKeys.ofCase(id), queryFn: async () => unwrap(await api.GET('/api/diagnosis/{id}/shots', { params: { path: { id } } })) ?? [], enabled: id > 0 });
}

/** The image of a screenshot as an object URL (the request carries the token). */
export function useShotImage(caseId: number, shotId: number) {
  return useQuery({
    queryKey: ['diagnosis', 'shot-image', caseId, shotId],
    queryFn: async () => {
      const res = await api.GET('/api/diagnosis/{id}/shots/{shot_id}/image', { params: { path: { id: caseId, shot_id: shotId } }, parseAs: 'blob' });
      if (res.error !== undefined || !res.data) throw toApiError(res.response.status, res.error, 'Request failed');
      return URL.createObjectURL(res.data as Blob);
    },
    staleTime: Infinity,
    gcTime: 10 * 60_000,
  });
}

export function useShotActions(id: number) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: shotKeys.ofCase(id) });
  return {
    update: useMutation({
      mutationFn: async ({ shotId, body }: { shotId: number; body: ShotUpdate }) =>
        unwrap(await api.PATCH('/api/diagnosis/{id}/shots/{shot_id}', { params: { path: { id, shot_id: shotId } }, body })),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: async (shotId: number) => unwrap(await api.DELETE('/api/diagnosis/{id}/shots/{shot_id}', { params: { path: { id, shot_id: shotId } } })),
      onSettled: refresh,
    }),
  };
}
