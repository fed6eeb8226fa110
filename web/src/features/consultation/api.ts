// Consultation API: typed fetchers and mutations for every case screen. Every
// write invalidates the "consultation" query prefix so lists, tab counts, menu
// badges and open details refresh together.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { toApiError, unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { ApiData } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import { casePath as path, useCaseMutation, type CaseInput } from '../../entities/case/api';

type Item<T> = T extends readonly (infer I)[] ? I : never;

export type Outcome = Item<ApiData<'/api/consultation/batch_submit', 'post'>>;
export type ChargeRow = Item<ApiData<'/api/charge/list', 'get'>>;
export type Library = Item<ApiData<'/api/config/library', 'get'>>;
export type UploadedFile = ApiData<'/api/common/upload', 'post'>;

/** Opens the case's published report as PDF in a new tab (the clinician's and uploader's lists). */
export async function openCaseReport(id: number) {
  const win = window.open('', '_blank');
  const res = await api.GET('/api/diagnosis/report/preview/{id}', { params: { path: { id }, query: {} }, parseAs: 'blob' });
  if (res.error !== undefined || !res.data) {
    win?.close();
    throw toApiError(res.response.status, res.error, res.response.statusText || 'Request failed');
  }
  const href = URL.createObjectURL(new Blob([res.data as Blob], { type: 'application/pdf' }));
  if (win) win.location.href = href;
  else window.open(href, '_blank');
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

export const fetchCharges = async (query: ApiListQuery) => listResult(await api.GET('/api/charge/list', { params: { query } }));

/** The experts of a center who take new cases; with a library, those bound to it (subspecialty) first. */
export function useCenterExperts(centerId: number | null | undefined, libraryId?: number | null) {
  return useQuery({
    queryKey: ['consultation', 'experts', centerId ?? 0, libraryId ?? 0],
    queryFn: async () =>
      unwrap(await api.GET('/api/consultation/resources/0/exp_list/center', { params: { query: { center_id: centerId!, ...(libraryId ? { library_id: libraryId } : {}) } } })),
    enabled: !!centerId,
    staleTime: 60_000,
  });
}

export function useReturnReasons(enabled = true) {
  return useQuery({
    queryKey: ['consultation', 'return-reasons'],
    queryFn: async () => unwrap(await api.GET('/api/config/consultation/return/reason')),
    enabled,
    staleTime: 5 * 60_000,
  });
}

export function useRecallReason(id: number | null) {
  return useQuery({
    queryKey: ['consultation', 'recall-reason', id ?? 0],
    queryFn: async () => unwrap(await api.GET('/api/admin/consultation/{id}/recall/reason', path(id!))),
    enabled: !!id,
  });
}

export function useChargeItems(enabled = true) {
  return useQuery({
    queryKey: ['charge_item', 'enabled'],
    queryFn: async () =>
      listResult(await api.GET('/api/charge_item/lists', { params: { query: { page: 1, page_size: 1000, params: JSON.stringify({ status: 1 }) } } })).rows,
    enabled,
    staleTime: 60_000,
  });
}

export function useLibraries() {
  return useQuery({
    queryKey: ['library', 'tree', 'enabled'],
    queryFn: async () => listResult(await api.GET('/api/config/library', { params: { query: { page: 1, page_size: 1000, tree: true } } })).rows,
    staleTime: 5 * 60_000,
  });
}

export async function nextPathologyNumber(libraryId: number): Promise<string> {
  return unwrap(await api.GET('/api/config/library/{id}/next_number', path(libraryId))).number;
}

export type SaveMode = 'draft' | 'save';

export function useSaveCase() {
  return useCaseMutation(async ({ id, mode, body }: { id: number | null; mode: SaveMode; body: CaseInput }) => {
    if (mode === 'draft') {
      return id ? unwrap(await api.POST('/api/consultation/draft/{id}', { ...path(id), body })) : unwrap(await api.POST('/api/consultation/draft', { body }));
    }
    return id ? unwrap(await api.POST('/api/consultation/{id}', { ...path(id), body })) : unwrap(await api.POST('/api/consultation', { body }));
  });
}

export const useDeleteCase = () => useCaseMutation(async (id: number) => unwrap(await api.DELETE('/api/consultation/{id}', path(id))));
export const useSubmitCase = () => useCaseMutation(async (id: number) => unwrap(await api.POST('/api/consultation/submit/{id}', path(id))));
export const useConsultAgain = () => useCaseMutation(async (id: number) => unwrap(await api.POST('/api/consultation/consult_again/{id}', path(id))));
export const useBatchSubmit = () => useCaseMutation(async (ids: number[]) => unwrap(await api.POST('/api/consultation/batch_submit', { body: { ids } })));
export const useRecall = () =>
  useCaseMutation(async ({ id, reason }: { id: number; reason: string }) => unwrap(await api.POST('/api/consultation/recall/{id}', { ...path(id), body: { reason } })));
export const useBatchRecall = () =>
  useCaseMutation(async ({ ids, reason }: { ids: number[]; reason: string }) => unwrap(await api.POST('/api/consultation/batch_recall', { body: { ids, reason } })));
export const useCharge = () =>
  useCaseMutation(async ({ id, items }: { id: number; items: { item_id: number; quantity: number }[] }) =>
    unwrap(await api.POST('/api/consultation/charge/{id}', { ...path(id), body: { items } })),
  );
export const useRefund = () => useCaseMutation(async (id: number) => unwrap(await api.POST('/api/consultation/refund/{id}', path(id))));

export type RecallDecision = 'agree' | 'reject' | 'ignore';
export const useRecallDecision = () =>
  useCaseMutation(async ({ id, decision, reason }: { id: number; decision: RecallDecision; reason?: string }) => {
    const body = { reason: reason ?? '' };
    if (decision === 'agree') return unwrap(await api.POST('/api/admin/consultation/{id}/recall/agree', { ...path(id), body }));
    if (decision === 'reject') return unwrap(await api.POST('/api/admin/consultation/{id}/recall/reject', { ...path(id), body }));
    return unwrap(await api.POST('/api/admin/consultation/{id}/recall/ignore', { ...path(id), body }));
  });
export const useBatchRecallAgree = () =>
  useCaseMutation(async (ids: number[]) => unwrap(await api.POST('/api/admin/consultation/recall/batch_agree', { body: { ids } })));

export const useBindExpert = () =>
  useCaseMutation(async ({ id, expertId }: { id: number; expertId: number }) =>
    unwrap(await api.POST('/api/distribute/{id}/bindexpert', { ...path(id), body: { expert_id: expertId } })),
  );
export const useBatchBindExpert = () =>
  useCaseMutation(async ({ ids, expertId }: { ids: number[]; expertId: number }) =>
    unwrap(await api.POST('/api/distribute/batch_bindexpert', { body: { ids, expert_id: expertId } })),
  );
export const useBindStaff = () =>
  useCaseMutation(async ({ id, staffId }: { id: number; staffId: number }) =>
    unwrap(await api.POST('/api/distribute/{id}/bindstaff', { ...path(id), body: { staff_id: staffId } })),
  );
/** The staff members of the case's center, for the allocator to name one. */
export function useCaseStaff(id: number | null) {
  return useQuery({
    queryKey: ['consultation', 'staff', id ?? 0],
    queryFn: async () => unwrap(await api.GET('/api/distribute/{id}/staff', path(id!))) ?? [],
    enabled: !!id,
  });
}
export const useReferral = () =>
  useCaseMutation(async ({ id, expertId, reason }: { id: number; expertId: number; reason: string }) =>
    unwrap(await api.POST('/api/distribute/{id}/referral', { ...path(id), body: { expert_id: expertId, reason } })),
  );
export const useReturnToSite = () =>
  useCaseMutation(async ({ id, reason }: { id: number; reason: string }) =>
    unwrap(await api.POST('/api/distribute/{id}/return', { ...path(id), body: { reason } })),
  );

