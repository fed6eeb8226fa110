// Statistics (spec 1 §2 /statistical/*): each screen's figures for the
// reader's scope, its Excel export, the filter choices, the QC targets.
import { useMutation, useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { toApiError, unwrap } from '../../lib/api/errors';
import { session } from '../../lib/session';
import { languageStore } from '../../lib/prefs';
import { downloadBlob } from '../../lib/download';
import type { ApiBody, ApiData } from '../../lib/api/types';

export type Stats = ApiData<'/api/statistical/consultation', 'get'>;
type Item<T> = NonNullable<T> extends readonly (infer I)[] ? I : never;
export type StatChart = Item<Stats['charts']>;
export type StatTable = Item<Stats['tables']>;
export type StatFigure = Item<Stats['cards']>;
export type StatOptions = ApiData<'/api/statistical/options', 'get'>;
export type QCTarget = Item<ApiData<'/api/config/qc', 'get'>>;
export type QCTargetsInput = ApiBody<'/api/config/qc/store_many', 'post'>;

export type Screen = 'consultation' | 'bank' | 'expert' | 'expert-consultation' | 'quality' | 'he' | 'outside' | 'diagnosis' | 'big-screen';

export interface StatQuery {
  start: string;
  end: string;
  granularity?: 'day' | 'week' | 'month';
  center_id?: number;
  hospital_id?: number;
  library_id?: number;
  expert_id?: number;
  kind?: string;
}

export const statKeys = { all: ['statistics'] as const, targets: ['qc-targets'] as const };

function clean(q: Partial<StatQuery>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '' && v !== null) out[k] = String(v);
  return out;
}

export async function fetchStats(screen: Screen, q: Partial<StatQuery>): Promise<Stats> {
  // The path is one of the screens' routes; they all answer the same shape.
  const path = `/api/statistical/${screen}` as '/api/statistical/consultation';
  return unwrap(await api.GET(path, { params: { query: clean(q) } }));
}

export function useStats(screen: Screen, q: Partial<StatQuery>, refetchInterval?: number) {
  return useQuery({ queryKey: [...statKeys.all, screen, q], queryFn: () => fetchStats(screen, q), placeholderData: keepPreviousData, refetchInterval });
}

export function useStatOptions() {
  return useQuery({ queryKey: [...statKeys.all, 'options'], queryFn: async () => unwrap(await api.GET('/api/statistical/options')), staleTime: 60_000 });
}

/** Downloads the xlsx of exactly what the screen shows for q. */
export async function exportStats(screen: Screen, q: Partial<StatQuery>, filename: string): Promise<void> {
  const headers: Record<string, string> = { 'user-language': languageStore.get() };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`/api/statistical/${screen}/export?${new URLSearchParams(clean(q))}`, { headers });
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null), res.statusText);
  downloadBlob(await res.blob(), filename);
}

export function useQCTargets() {
  return useQuery({ queryKey: statKeys.targets, queryFn: async () => unwrap(await api.GET('/api/config/qc')) });
}

export function useStoreTargets() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: QCTargetsInput) => unwrap(await api.POST('/api/config/qc/store_many', { body })),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: statKeys.targets }), qc.invalidateQueries({ queryKey: statKeys.all })]),
  });
}
