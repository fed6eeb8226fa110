// What every screen knows about a consultation case: its types, query keys, the
// case list fetchers and the case, log and message queries. Writes that change a
// case invalidate caseKeys.all, so lists, tab counts, badges and open details
// refresh together.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { ApiBody, ApiData } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';

type Item<T> = T extends readonly (infer I)[] ? I : never;

export type CaseRow = Item<ApiData<'/api/consultation/list', 'get'>>;
export type CaseDetail = ApiData<'/api/consultation/resources/{id}', 'get'>;
export type CaseInput = ApiBody<'/api/consultation', 'post'>;
export type StatusLabel = CaseRow['status_label'];
export type LogEntry = Item<ApiData<'/api/consultation/resources/{id}/log', 'get'>>;
export type CaseMessage = Item<ApiData<'/api/consultation/resources/{id}/message', 'get'>>;
export type Slide = Item<CaseDetail['slides']>;
export type Attachment = Item<CaseDetail['attachments']>;
export type Specimen = Item<CaseDetail['specimens']>;

export const caseKeys = {
  all: ['consultation'] as const,
  list: (scope: string) => ['consultation', 'list', scope] as const,
  detail: (id: number) => ['consultation', 'detail', id] as const,
  log: (id: number) => ['consultation', 'log', id] as const,
  messages: (id: number) => ['consultation', 'message', id] as const,
  badges: ['consultation', 'badges'] as const,
  charges: ['consultation', 'charges'] as const,
};

/** The `{ params: { path: { id } } }` of a request on one case. */
export const casePath = (id: number) => ({ params: { path: { id } } });

export const fetchCases = async (query: ApiListQuery) => listResult(await api.GET('/api/consultation/list', { params: { query } }));
export const countCases = async (query: CountQuery) => unwrap(await api.GET('/api/consultation/count', { params: { query } }));

const known = (id: number | null | undefined): id is number => !!id && id > 0;

/** The case with everything the detail screens show (form, specimens, slides, attachments, actions). */
export function useCase(id: number | null | undefined) {
  return useQuery({
    queryKey: caseKeys.detail(id ?? 0),
    queryFn: async () => unwrap(await api.GET('/api/consultation/resources/{id}', casePath(id!))),
    enabled: known(id),
  });
}

/** The case's history, oldest first. */
export function useCaseLog(id: number | null | undefined) {
  return useQuery({
    queryKey: caseKeys.log(id ?? 0),
    queryFn: async () => unwrap(await api.GET('/api/consultation/resources/{id}/log', casePath(id!))) ?? [],
    enabled: known(id),
  });
}

/** The case's message thread (refetched when the live stream says the case changed). */
export function useCaseMessages(id: number | null | undefined) {
  return useQuery({
    queryKey: caseKeys.messages(id ?? 0),
    queryFn: async () => unwrap(await api.GET('/api/consultation/resources/{id}/message', casePath(id!))) ?? [],
    enabled: known(id),
  });
}

/** The diagnosis settings a registration uses for a center of the caller's hospital (fixative defaults, infectious specimen options). */
export function useFormOptions(centerId: number | null | undefined) {
  return useQuery({
    queryKey: ['consultation', 'form-options', centerId ?? 0],
    queryFn: async () => unwrap(await api.GET('/api/consultation/form_options', { params: { query: { center_id: centerId ?? 0 } } })),
    staleTime: 60_000,
  });
}

export type FormOptions = ApiData<'/api/consultation/form_options', 'get'>;

/** The fixative the server fills into a specimen left empty: cell_fixed in a cytology library, routine_fixed in any other. */
export const defaultFixative = (options: FormOptions | undefined, reportKind: string | undefined) =>
  reportKind === 'cell' ? options?.cell_fixed : options?.routine_fixed;

/** A write on a case that refreshes every case query afterwards. */
export function useCaseMutation<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: caseKeys.all }) });
}

export const usePostMessage = () =>
  useCaseMutation(async ({ id, content }: { id: number; content: string }) =>
    unwrap(await api.POST('/api/consultation/resources/{id}/message', { ...casePath(id), body: { content } })),
  );
export const useDeleteMessage = () =>
  useCaseMutation(async (id: number) => unwrap(await api.DELETE('/api/consultation/resources/0/message/{id}', casePath(id))));

/** The case's slides as shown: removed ones left out, in their order. */
export const shownSlides = (slides: CaseDetail['slides']): Slide[] => [...(slides ?? [])].filter((s) => s.status !== -1).sort((a, b) => a.sort - b.sort);
