// The message centre as every screen knows it: notifications of the signed-in
// user (the bell, the list, the notices shown at sign-in) and the notices the
// administrators write. Live events invalidate messageKeys.all.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { ApiBody, ApiData } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';

type Item<T> = T extends readonly (infer I)[] ? I : never;

export type Notification = Item<ApiData<'/api/message/list', 'get'>>;
export type Bell = ApiData<'/api/message/bell', 'get'>;
export type Notice = Item<ApiData<'/api/admin/notice/list', 'get'>>;
export type NoticeInput = ApiBody<'/api/admin/notice', 'post'>;
export type Receipt = Item<ApiData<'/api/admin/notice/{id}/receipts', 'get'>>;

export const messageKeys = {
  all: ['message'] as const,
  bell: ['message', 'bell'] as const,
  list: ['message', 'list'] as const,
  pending: ['message', 'pending'] as const,
  notices: ['message', 'notices'] as const,
  receipts: (id: number) => ['message', 'receipts', id] as const,
};

export const fetchMessages = async (query: ApiListQuery) => listResult(await api.GET('/api/message/list', { params: { query } }));
export const countMessages = async (query: CountQuery) => unwrap(await api.GET('/api/message/count', { params: { query } }));
export const fetchNotices = async (query: ApiListQuery) => listResult(await api.GET('/api/admin/notice/list', { params: { query } }));

/** The unread count and the newest unread notifications. */
export function useBell(enabled = true) {
  return useQuery({ queryKey: messageKeys.bell, queryFn: async () => unwrap(await api.GET('/api/message/bell')), enabled });
}

/** Very important notices the user has not acknowledged yet. */
export function usePendingNotices(enabled = true) {
  return useQuery({ queryKey: messageKeys.pending, queryFn: async () => unwrap(await api.GET('/api/message/pending')) ?? [], enabled });
}

function useMessageWrite<V, R = unknown>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: messageKeys.all }) });
}

export const useMarkRead = () => useMessageWrite(async (ids: number[]) => unwrap(await api.POST('/api/message/read', { body: { ids } })));
export const useMarkAllRead = () => useMessageWrite(async () => unwrap(await api.POST('/api/message/read_all')));
export const useAcknowledge = () => useMessageWrite(async (id: number) => unwrap(await api.POST('/api/message/{id}/ack', { params: { path: { id } } })));
export const useSendNotice = () => useMessageWrite(async (body: NoticeInput) => unwrap(await api.POST('/api/admin/notice', { body })));
export const useWithdrawNotice = () => useMessageWrite(async (id: number) => unwrap(await api.POST('/api/admin/notice/{id}/withdraw', { params: { path: { id } } })));

export function useReceipts(id: number | null) {
  return useQuery({
    queryKey: messageKeys.receipts(id ?? 0),
    queryFn: async () => unwrap(await api.GET('/api/admin/notice/{id}/receipts', { params: { path: { id: id! } } })) ?? [],
    enabled: !!id,
  });
}

/** Users a notice may be addressed to (the managers' user list, within their scope). */
export function useUserOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['user', 'options'],
    queryFn: async () =>
      listResult(await api.GET('/api/user', { params: { query: { page: 1, page_size: 10000 } } })).rows.map((u) => ({ value: u.id, label: `${u.name} (${u.username})` })),
    enabled,
    staleTime: 60_000,
  });
}
