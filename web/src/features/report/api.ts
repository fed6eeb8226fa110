import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { ApiBody, ApiData } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';

export type ReportTemplate = ApiData<'/api/setting/report/{id}', 'get'>;
export type ReportTemplateInput = ApiBody<'/api/setting/report/add', 'post'>;
export type Layout = ReportTemplateInput['layout'];
export type LayoutSection = NonNullable<Layout['sections']>[number];
export type ReportTemplateOptions = ApiData<'/api/setting/report/options', 'get'>;
export type ReportKind = 'routine' | 'frozen' | 'cell';
export const KINDS: ReportKind[] = ['routine', 'frozen', 'cell'];

export const reportTemplateKeys = { all: ['report-template'] as const };

export const fetchReportTemplates = async (query: ApiListQuery) => listResult(await api.GET('/api/setting/report/list', { params: { query } }));
export const countReportTemplates = async (query: CountQuery) => unwrap(await api.GET('/api/setting/report/count', { params: { query } }));

export function useReportTemplate(id: number | null) {
  return useQuery({
    queryKey: [...reportTemplateKeys.all, 'one', id],
    queryFn: async () => unwrap(await api.GET('/api/setting/report/{id}', { params: { path: { id: id! } } })),
    enabled: id !== null,
  });
}

export function useDefaultLayout(kind: ReportKind | null) {
  return useQuery({
    queryKey: [...reportTemplateKeys.all, 'default', kind],
    queryFn: async () => unwrap(await api.GET('/api/setting/report/default/{kind}', { params: { path: { kind: kind! } } })),
    enabled: kind !== null,
  });
}

export function useLayoutOptions() {
  return useQuery({
    queryKey: [...reportTemplateKeys.all, 'options'],
    queryFn: async () => unwrap(await api.GET('/api/setting/report/options')),
    staleTime: Infinity,
  });
}

/** Creates (id null) or updates a template, then refreshes the list. */
export function useSaveReportTemplate(id: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReportTemplateInput) =>
      id === null
        ? unwrap(await api.POST('/api/setting/report/add', { body }))
        : unwrap(await api.POST('/api/setting/report/{id}', { params: { path: { id } }, body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: reportTemplateKeys.all }),
  });
}
