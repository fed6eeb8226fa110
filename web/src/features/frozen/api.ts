// Frozen sections: attendance groups and the duty schedule (allocator),
// appointments from booking to the frozen case (site, allocator, expert,
// staff, admin) — spec 1 §2, spec 2 §4, §5, §9.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { toApiError, unwrap } from '../../lib/api/errors';
import { session } from '../../lib/session';
import { languageStore } from '../../lib/prefs';
import { downloadBlob } from '../../lib/download';
import { listResult } from '../../lib/api/list';
import type { ApiBody, ApiData } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';

type Item<T> = T extends readonly (infer I)[] ? I : never;
export type Appointment = Item<ApiData<'/api/frozen/appointment/lists', 'get'>>;
export type BookInput = ApiBody<'/api/frozen/appointment', 'post'>;
export type AttendanceGroup = Item<ApiData<'/api/schedule/groups', 'get'>>;
export type GroupInput = ApiBody<'/api/schedule/group', 'post'>;
export type ScheduleInput = ApiBody<'/api/schedule/duty', 'put'>;
export type DutyEntry = Item<ApiData<'/api/schedule/duty', 'get'>>;
export type FrozenCaseInput = ApiData<'/api/frozen/appointment/{id}/case', 'get'>;

export const frozenKeys = { all: ['frozen'] as const, duty: ['duty'] as const };

const path = (id: number) => ({ params: { path: { id } } });

export const fetchAppointments = async (query: ApiListQuery) => listResult(await api.GET('/api/frozen/appointment/lists', { params: { query } }));
export const countAppointments = async (query: CountQuery) => unwrap(await api.GET('/api/frozen/appointment/count', { params: { query } }));

export async function exportAppointments(query: Partial<ApiListQuery>, filename: string): Promise<void> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') qs.set(k, String(v));
  const headers: Record<string, string> = { 'user-language': languageStore.get() };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`/api/frozen/appointment/export?${qs}`, { headers });
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null), res.statusText);
  downloadBlob(await res.blob(), filename);
}

/** A write that refreshes every frozen list and count. */
function useWrite<V, R = unknown>(fn: (v: V) => Promise<R>, keys: readonly (readonly unknown[])[] = [frozenKeys.all]) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => Promise.all(keys.map((k) => qc.invalidateQueries({ queryKey: k }))) });
}

export const useBook = () => useWrite(async (v: BookInput) => unwrap(await api.POST('/api/frozen/appointment', { body: v })));
/** Sends a returned appointment again, changed. */
export const useResubmit = () =>
  useWrite(async ({ id, input }: { id: number; input: BookInput }) => unwrap(await api.PUT('/api/frozen/appointment/{id}', { ...path(id), body: input })));

export type SimpleAction = 'accept' | 'ignore' | 'unignore' | 'open';
export function useSimpleAction() {
  return useWrite(async ({ id, action }: { id: number; action: SimpleAction | 'recall_agree' | 'recall_reject' }) => {
    switch (action) {
      case 'recall_agree':
        return unwrap(await api.POST('/api/frozen/appointment/{id}/recall/agree', path(id)));
      case 'recall_reject':
        return unwrap(await api.POST('/api/frozen/appointment/{id}/recall/reject', path(id)));
      default:
        return unwrap(await api.POST(`/api/frozen/appointment/{id}/${action}`, path(id)));
    }
  });
}

export const useReturn = () =>
  useWrite(async ({ id, reason }: { id: number; reason: string }) => unwrap(await api.POST('/api/frozen/appointment/{id}/return', { ...path(id), body: { reason } })));
export const useRecall = () =>
  useWrite(async ({ id, reason }: { id: number; reason: string }) => unwrap(await api.POST('/api/frozen/appointment/{id}/recall', { ...path(id), body: { reason } })));
export const useAssign = () =>
  useWrite(async ({ id, expertId }: { id: number; expertId?: number }) =>
    unwrap(await api.POST('/api/frozen/appointment/{id}/assign', { ...path(id), body: expertId ? { expert_id: expertId } : {} })),
  );
export const useArrive = () =>
  useWrite(async ({ id, input }: { id: number; input: FrozenCaseInput }) => unwrap(await api.POST('/api/frozen/appointment/{id}/arrive', { ...path(id), body: { case: input } })));

/** Registers the paraffin case that follows a reported frozen case (a draft to complete). */
export const useParaffin = () => useWrite(async (id: number) => unwrap(await api.POST('/api/frozen/appointment/{id}/paraffin', path(id))));

export function usePrefill(id: number | null) {
  return useQuery({
    queryKey: [...frozenKeys.all, 'prefill', id],
    queryFn: async () => unwrap(await api.GET('/api/frozen/appointment/{id}/case', path(id!))),
    enabled: id !== null,
    staleTime: 0,
  });
}

export function useGroups() {
  return useQuery({ queryKey: [...frozenKeys.duty, 'groups'], queryFn: async () => unwrap(await api.GET('/api/schedule/groups')) });
}

export function useDuty(from: string, to: string) {
  return useQuery({ queryKey: [...frozenKeys.duty, 'list', from, to], queryFn: async () => unwrap(await api.GET('/api/schedule/duty', { params: { query: { from, to } } })) });
}

export const useSaveGroup = (id: number | null) =>
  useWrite(
    async (v: GroupInput) =>
      id ? unwrap(await api.PUT('/api/schedule/group/{id}', { ...path(id), body: v })) : unwrap(await api.POST('/api/schedule/group', { body: v })),
    [frozenKeys.duty],
  );
export const useSchedule = () => useWrite(async (v: ScheduleInput) => unwrap(await api.PUT('/api/schedule/duty', { body: v })), [frozenKeys.duty]);

export function useCenterExperts(centerId: number | null) {
  return useQuery({
    queryKey: ['center-experts', centerId],
    queryFn: async () => unwrap(await api.GET('/api/consultation/resources/0/exp_list/center', { params: { query: { center_id: centerId! } } })),
    enabled: !!centerId,
  });
}
