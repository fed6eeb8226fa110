// Borrow and archive (/borrow/manage): loans of a case's slides and blocks,
// and the center's archive.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { toApiError, unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { ApiBody, ApiData } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';

type Item<T> = T extends readonly (infer I)[] ? I : never;
export type Loan = Item<ApiData<'/api/borrow/lists', 'get'>>;
export type ArchiveRow = Item<ApiData<'/api/archive/lists', 'get'>>;
export type RequestInput = ApiBody<'/api/borrow', 'post'>;
export type StoreInput = ApiBody<'/api/archive/{id}/store', 'post'>;

export const borrowKeys = { all: ['borrow'] as const, archive: ['archive'] as const };
export const LOAN_TABS = ['all', 'checking', 'passed', 'not_passed', 'borrowing', 'overdue', 'returned'] as const;
export const ARCHIVE_TABS = ['all', 'to_receive', 'not_archived', 'archived'] as const;
export const BORROW_TYPES = ['family', 'outer', 'department', 'hospital'] as const;

export const fetchLoans = async (query: ApiListQuery) => listResult(await api.GET('/api/borrow/lists', { params: { query } }));
export const countLoans = async (query: CountQuery) => unwrap(await api.GET('/api/borrow/count', { params: { query } }));
export const fetchArchives = async (query: ApiListQuery) => listResult(await api.GET('/api/archive/lists', { params: { query } }));
export const countArchives = async (query: CountQuery) => unwrap(await api.GET('/api/archive/count', { params: { query } }));

const path = (id: number) => ({ params: { path: { id } } });

function useWrite<V, R = unknown>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: borrowKeys.all }), qc.invalidateQueries({ queryKey: borrowKeys.archive })]),
  });
}

export const useRequestLoan = () => useWrite(async (v: RequestInput) => unwrap(await api.POST('/api/borrow', { body: v })));

export type LoanAction = 'approve' | 'reject' | 'lend' | 'return' | 'extend';
export type ArchiveAction = 'receive' | 'store' | 'undo' | 'rearchive';

/** One loan action with the fields its dialog asked. */
export function useLoanAction() {
  return useWrite(async ({ id, action, body }: { id: number; action: LoanAction; body: Record<string, unknown> }) => {
    switch (action) {
      case 'approve':
        return unwrap(await api.POST('/api/borrow/{id}/approve', path(id)));
      case 'reject':
        return unwrap(await api.POST('/api/borrow/{id}/reject', { ...path(id), body: { reason: String(body.reason ?? '') } }));
      case 'lend':
        return unwrap(await api.POST('/api/borrow/{id}/lend', { ...path(id), body: { deposit: Number(body.deposit ?? 0), payee: String(body.payee ?? '') } }));
      case 'extend':
        return unwrap(await api.POST('/api/borrow/{id}/extend', { ...path(id), body: { due_date: String(body.due_date ?? ''), reason: String(body.reason ?? '') } }));
      case 'return':
        return unwrap(
          await api.POST('/api/borrow/{id}/return', {
            ...path(id),
            body: { damaged: !!body.damaged, compensation: body.damaged ? Number(body.compensation ?? 0) : 0, note: String(body.note ?? '') },
          }),
        );
    }
  });
}

/** One loan as its detail shows it (with the changes of its due date). */
export function useLoan(id: number | undefined) {
  return useQuery({
    queryKey: [...borrowKeys.all, 'one', id],
    queryFn: async () => unwrap(await api.GET('/api/borrow/{id}', path(id ?? 0))),
    enabled: !!id,
  });
}

/** One archive action on a case (id is the case's). */
export function useArchiveAction() {
  return useWrite(async ({ id, action, body }: { id: number; action: ArchiveAction; body: Record<string, unknown> }) => {
    const s = (k: string) => String(body[k] ?? '');
    switch (action) {
      case 'receive':
        return unwrap(await api.POST('/api/archive/{id}/receive', { ...path(id), body: { source: s('source') } }));
      case 'undo':
        return unwrap(await api.POST('/api/archive/{id}/undo', { ...path(id), body: { reason: s('reason') } }));
      default: {
        const loc: StoreInput = { room: s('room'), box_no: s('box_no'), locker_no: s('locker_no'), archive_no: s('archive_no'), type: (body.type as StoreInput['type']) ?? '' };
        return action === 'store'
          ? unwrap(await api.POST('/api/archive/{id}/store', { ...path(id), body: loc }))
          : unwrap(await api.POST('/api/archive/{id}/rearchive', { ...path(id), body: loc }));
      }
    }
  });
}

/** Cases the caller may ask to borrow from: sent to a center, found by number or patient. */
export function useLendableCases(search: string) {
  return useQuery({
    queryKey: [...borrowKeys.all, 'cases', search],
    queryFn: async () => {
      const r = await listResult(await api.GET('/api/consultation/list', { params: { query: { page: 1, page_size: 20, search } } }));
      return r.rows.filter((c) => c.status !== 0);
    },
    staleTime: 30_000,
  });
}

/** Opens the loan slip (PDF) in a new tab. */
export async function openSlip(id: number) {
  const win = window.open('', '_blank');
  const res = await api.GET('/api/borrow/{id}/slip', { ...path(id), parseAs: 'blob' });
  if (res.error !== undefined || !res.data) {
    win?.close();
    throw toApiError(res.response.status, res.error, res.response.statusText || 'Request failed');
  }
  const href = URL.createObjectURL(new Blob([res.data as Blob], { type: 'application/pdf' }));
  if (win) win.location.href = href;
  else window.open(href, '_blank');
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
