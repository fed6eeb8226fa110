// The expert's further actions on a case: favourites, referral, handover and
// its recall. Writes refresh the diagnosis and consultation queries.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { ApiData } from '../../lib/api/types';
import { caseKeys } from '../../entities/case/api';
import { diagKeys } from './api';

type Item<T> = T extends readonly (infer I)[] ? I : never;
export type Handover = Item<ApiData<'/api/consultation/resources/{id}/handover', 'get'>>;

const path = (id: number) => ({ params: { path: { id } } });

function useWrite<V>(fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: diagKeys.all }), qc.invalidateQueries({ queryKey: caseKeys.all })]),
  });
}

/** Adds a case to, or removes it from, my favourites. */
export function useCollect() {
  return useWrite(async ({ id, on }: { id: number; on: boolean }) =>
    on
      ? unwrap(await api.POST('/api/consultation/collection', { body: { consult_id: id } }))
      : unwrap(await api.DELETE('/api/consultation/collection/{id}', path(id))),
  );
}

export function useHandovers(id: number) {
  return useQuery({
    queryKey: [...caseKeys.detail(id), 'handover'],
    queryFn: async () => unwrap(await api.GET('/api/consultation/resources/{id}/handover', path(id))) ?? [],
    enabled: id > 0,
  });
}

export function useTransferActions(id: number) {
  const p = path(id);
  return {
    referral: useWrite(async (body: { expert_id: number; reason: string }) => unwrap(await api.POST('/api/diagnosis/{id}/referral', { ...p, body }))),
    handover: useWrite(async (body: { expert_id: number; note: string }) => unwrap(await api.POST('/api/diagnosis/{id}/handover', { ...p, body }))),
    handoverRecall: useWrite(async () => unwrap(await api.POST('/api/diagnosis/handover/recall/{id}', p))),
  };
}
