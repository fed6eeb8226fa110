// Advice (special exams, technical re-work) on cases: the expert orders it,
// the site executes it or passes a special exam to a third party.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { toApiError, unwrap } from '../../lib/api/errors';
import { session } from '../../lib/session';
import { languageStore } from '../../lib/prefs';
import { downloadBlob } from '../../lib/download';
import { listResult } from '../../lib/api/list';
import type { ApiBody, ApiData } from '../../lib/api/types';
import { withParams, type ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';

type Item<T> = T extends readonly (infer I)[] ? I : never;
export type Advice = Item<ApiData<'/api/diagnosis/{id}/advice', 'get'>>;
export type AdviceInput = ApiBody<'/api/diagnosis/{id}/advice', 'post'>;
export type AdviceKind = 'special' | 'technical';
export type AdviceItemInput = ApiBody<'/api/diagnosis/{id}/advice/{advice_id}', 'post'>;
export type AdviceResultsInput = ApiBody<'/api/advice/detail_store/{id}', 'post'>;

export const ADVICE_ITEMS: Record<AdviceKind, string[]> = {
  special: ['immunohistochemisty', 'special_stain', 'molecular_pathology'],
  technical: ['re_sample', 're_cut', 'deep_cut', 'thin_cut', 're_embeded', 'consult_he_cut', 'glue_cut', 'consult_cut', 'continue_cut', 'read_cut', 'cell_block', 'other'],
};

export const ADVICE_STATUS_COLOURS: Record<string, string> = { pending: 'orange', transferred: 'purple', executed: 'green', done: 'green' };

export const adviceKeys = {
  all: ['advice'] as const,
  ofCase: (id: number) => ['advice', 'case', id] as const,
  list: (kind: string) => ['advice', 'list', kind] as const,
  third: ['advice', 'third'] as const,
};

const path = (id: number) => ({ params: { path: { id } } });

function useWrite<V>(fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: adviceKeys.all }), qc.invalidateQueries({ queryKey: ['consultation'] })]),
  });
}

export function useCaseAdvice(id: number) {
  return useQuery({ queryKey: adviceKeys.ofCase(id), queryFn: async () => unwrap(await api.GET('/api/diagnosis/{id}/advice', path(id))) ?? [], enabled: id > 0 });
}

export function useAdviceActions(id: number) {
  return {
    order: useWrite(async (body: AdviceInput) => unwrap(await api.POST('/api/diagnosis/{id}/advice', { ...path(id), body }))),
    cancel: useWrite(async ({ kind, ids }: { kind: AdviceKind; ids: number[] }) =>
      unwrap(await api.DELETE(kind === 'special' ? '/api/diagnosis/{id}/advice' : '/api/diagnosis/{id}/doctor_advice', { ...path(id), body: { ids } })),
    ),
    update: useWrite(async ({ adviceId, body }: { adviceId: number; body: AdviceItemInput }) =>
      unwrap(await api.POST('/api/diagnosis/{id}/advice/{advice_id}', { params: { path: { id, advice_id: adviceId } }, body })),
    ),
    results: useWrite(async ({ adviceId, body }: { adviceId: number; body: AdviceResultsInput }) =>
      unwrap(await api.POST('/api/advice/detail_store/{id}', { ...path(adviceId), body })),
    ),
  };
}

export const fetchAdvice = (kind: AdviceKind) => async (query: ApiListQuery) =>
  listResult(await api.GET('/api/consultation/advice_list', { params: { query: withKind(query, kind) } }));
export const countAdvice = (kind: AdviceKind) => async (query: CountQuery) =>
  unwrap(await api.GET('/api/consultation/advice_list/count', { params: { query: withKind(query, kind) } }));

const withKind = <Q extends { params?: string }>(q: Q, kind: AdviceKind): Q => withParams(q, { kind });

export function useSiteAdviceActions() {
  return {
    execute: useWrite(async ({ advice, result }: { advice: Advice; result: string }) =>
      advice.kind === 'special'
        ? unwrap(await api.POST('/api/consultation/advice/execute/{id}', { ...path(advice.id), body: { result } }))
        : unwrap(await api.POST('/api/consultation/doctor_advice/execute/{id}', { ...path(advice.id), body: { result } })),
    ),
    transfer: useWrite(async ({ advice, third_id }: { advice: Advice; third_id: number }) =>
      unwrap(await api.POST('/api/consultation/advice/transfer/{id}', { ...path(advice.id), body: { third_id } })),
    ),
  };
}

export function useThirds(caseId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['advice', 'thirds', caseId],
    queryFn: async () => unwrap(await api.GET('/api/consultation/resources/{id}/third', path(caseId))) ?? [],
    enabled: enabled && caseId > 0,
    staleTime: 60_000,
  });
}

export function useThirdAdvice(pending: boolean) {
  return useQuery({ queryKey: [...adviceKeys.third, pending], queryFn: async () => unwrap(await api.GET('/api/third/advice', { params: { query: { pending } } })) ?? [] });
}

export function useThirdResult() {
  return useWrite(async ({ id, result }: { id: number; result: string }) => unwrap(await api.POST('/api/third/addadvice/{id}', { ...path(id), body: { result } })));
}

/** Downloads the filtered advice list of a kind as .xlsx (the list's current filters and sort). */
export async function exportAdvice(kind: AdviceKind, query: Partial<ApiListQuery>, filename: string): Promise<void> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') qs.set(k, String(v));
  const headers: Record<string, string> = { 'user-language': languageStore.get() };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  const path = kind === 'special' ? 'advice_list' : 'doctor_advice_list';
  const res = await fetch(`/api/consultation/${path}/export?${qs}`, { headers });
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null), res.statusText);
  downloadBlob(await res.blob(), filename);
}
