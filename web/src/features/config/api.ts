// Configuration records the administrator keeps: pathology libraries (banks),
// charge items and timeout limits (spec 2 §3 Configuration records, Charge).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { ApiBody, ApiData } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';

type Item<T> = T extends readonly (infer I)[] ? I : never;
export type Library = Item<ApiData<'/api/config/library', 'get'>>;
export type LibraryInput = ApiBody<'/api/config/library', 'post'>;
export type ChargeItem = Item<ApiData<'/api/charge_item/lists', 'get'>>;
export type ChargeItemInput = ApiBody<'/api/charge_item/store', 'post'>;
export type TimeoutConfig = Item<ApiData<'/api/config/timeout', 'get'>>;
export type TimeoutInput = ApiBody<'/api/config/timeout', 'post'>;

export const REPORT_KINDS = ['routine', 'frozen', 'cell'] as const;

export const libraryKeys = { all: ['library'] as const };
export const chargeItemKeys = { all: ['charge_item'] as const };
export const timeoutKeys = { all: ['timeout'] as const };

const path = (id: number) => ({ params: { path: { id } } });

export const fetchLibraries = async (query: ApiListQuery) => listResult(await api.GET('/api/config/library', { params: { query } }));
export const countLibraries = async (query: CountQuery) => unwrap(await api.GET('/api/config/library/count', { params: { query } }));
export const fetchChargeItems = async (query: ApiListQuery) => listResult(await api.GET('/api/charge_item/lists', { params: { query } }));
export const countChargeItems = async (query: CountQuery) => unwrap(await api.GET('/api/charge_item/count', { params: { query } }));
export const fetchTimeouts = async (query: ApiListQuery) => listResult(await api.GET('/api/config/timeout', { params: { query } }));

export function useLibrary(id: number | null) {
  return useQuery({
    queryKey: [...libraryKeys.all, 'one', id],
    queryFn: async () => unwrap(await api.GET('/api/config/library/{id}', path(id!))),
    enabled: id !== null,
  });
}

/** Every library as a tree (for the parent select). */
export function useLibraryTree() {
  return useQuery({
    queryKey: [...libraryKeys.all, 'tree'],
    queryFn: async () => listResult(await api.GET('/api/config/library', { params: { query: { page: 1, page_size: 1000, tree: true } } })).rows,
  });
}

export function useChargeItem(id: number | null) {
  return useQuery({
    queryKey: [...chargeItemKeys.all, 'one', id],
    queryFn: async () => unwrap(await api.GET('/api/charge_item/item/{id}', path(id!))),
    enabled: id !== null,
  });
}

/** A write that refreshes every list under key (rows, counts and selects). */
function useWrite<V>(key: readonly unknown[], fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: key }) });
}

export const useSaveLibrary = (id: number | null) =>
  useWrite(libraryKeys.all, async (body: LibraryInput) =>
    id === null ? unwrap(await api.POST('/api/config/library', { body })) : unwrap(await api.POST('/api/config/library/{id}', { ...path(id), body })),
  );
export const useDeleteLibrary = () => useWrite(libraryKeys.all, async (id: number) => unwrap(await api.DELETE('/api/config/library/{id}', path(id))));

export const useSaveChargeItem = (id: number | null) =>
  useWrite(chargeItemKeys.all, async (body: ChargeItemInput) =>
    id === null ? unwrap(await api.POST('/api/charge_item/store', { body })) : unwrap(await api.PATCH('/api/charge_item/update', { body: { ...body, id } })),
  );
export const useDeleteChargeItems = () =>
  useWrite(chargeItemKeys.all, async (ids: number[]) => unwrap(await api.DELETE('/api/charge_item/destroy', { body: { ids } })));

export const useSaveTimeout = (id: number | null) =>
  useWrite(timeoutKeys.all, async (body: TimeoutInput) =>
    id === null ? unwrap(await api.POST('/api/config/timeout', { body })) : unwrap(await api.PATCH('/api/config/timeout/{id}', { ...path(id), body })),
  );
export const useDeleteTimeout = () => useWrite(timeoutKeys.all, async (id: number) => unwrap(await api.DELETE('/api/config/timeout/{id}', path(id))));
