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
export type Reagent = Item<ApiData<'/api/reagent/lists', 'get'>>;
export type ReagentInput = ApiBody<'/api/reagent/store', 'post'>;
export type DiagnosisSettings = ApiData<'/api/config/common/setting', 'get'>;
export type DiagnosisConfig = DiagnosisSettings['settings'];
export type DiagnosisKey = keyof DiagnosisConfig;

export const REPORT_KINDS = ['routine', 'frozen', 'cell'] as const;

export const libraryKeys = { all: ['library'] as const };
export const chargeItemKeys = { all: ['charge_item'] as const };
export const timeoutKeys = { all: ['timeout'] as const };
export const reagentKeys = { all: ['reagent'] as const };
export const diagnosisConfigKeys = { all: ['diagnosis_config'] as const };

/** The diagnosis settings keys of spec 2 §7, by the kind of their value. */
export const DIAGNOSIS_LISTS = ['delay_report', 'timeout_reason', 'specimen_reject', 'first_audit_error_reason', 'special_advice', 'infectious_specimen', 'report_class'] as const;
export const DIAGNOSIS_TEXTS = ['default_molecular_block_remark', 'routine_fixed', 'cell_fixed'] as const;
export const DIAGNOSIS_SWITCHES = ['after_frozen_paraffin_block'] as const;

const path = (id: number) => ({ params: { path: { id } } });

export const fetchLibraries = async (query: ApiListQuery) => listResult(await api.GET('/api/config/library', { params: { query } }));
export const countLibraries = async (query: CountQuery) => unwrap(await api.GET('/api/config/library/count', { params: { query } }));
export const fetchChargeItems = async (query: ApiListQuery) => listResult(await api.GET('/api/charge_item/lists', { params: { query } }));
export const countChargeItems = async (query: CountQuery) => unwrap(await api.GET('/api/charge_item/count', { params: { query } }));
export const fetchReagents = async (query: ApiListQuery) => listResult(await api.GET('/api/reagent/lists', { params: { query } }));
export const countReagents = async (query: CountQuery) => unwrap(await api.GET('/api/reagent/count', { params: { query } }));
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

export function useReagent(id: number | null) {
  return useQuery({
    queryKey: [...reagentKeys.all, 'one', id],
    queryFn: async () => unwrap(await api.GET('/api/reagent/item/{id}', path(id!))),
    enabled: id !== null,
  });
}

export const useSaveReagent = (id: number | null) =>
  useWrite(reagentKeys.all, async (body: ReagentInput) =>
    id === null ? unwrap(await api.POST('/api/reagent/store', { body })) : unwrap(await api.PATCH('/api/reagent/update', { body: { ...body, id } })),
  );
export const useDeleteReagents = () => useWrite(reagentKeys.all, async (ids: number[]) => unwrap(await api.DELETE('/api/reagent/destroy', { body: { ids } })));

/** The diagnosis settings of the caller's scope (the center's copy for a center administrator). */
export function useDiagnosisConfig() {
  return useQuery({ queryKey: diagnosisConfigKeys.all, queryFn: async () => unwrap(await api.GET('/api/config/common/setting')) });
}

/** Changes keys of the caller's scope; null gives a center's key back to the global value. */
export const useSaveDiagnosisConfig = () =>
  useWrite(diagnosisConfigKeys.all, async (settings: Partial<Record<DiagnosisKey, unknown>>) =>
    unwrap(await api.POST('/api/config/common/setting', { body: { settings: settings as Record<string, unknown> } })),
  );
