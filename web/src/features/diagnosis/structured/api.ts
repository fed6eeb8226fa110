// Structured report templates, report rules and symbols (spec 2 §7
// config/struct_template, config/rule, config/symbol). The rules run on the
// server only (evaluate); the web shows what it returns.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api/client';
import { unwrap } from '../../../lib/api/errors';
import type { ApiBody, ApiData } from '../../../lib/api/types';
import { caseKeys } from '../../../entities/case/api';

type Item<T> = T extends readonly (infer I)[] ? I : never;

export type StructTemplate = Item<ApiData<'/api/config/struct_template', 'get'>>;
export type StructTemplateInput = ApiBody<'/api/config/struct_template', 'post'>;
export type StructField = NonNullable<StructTemplate['fields']>[number];
export type ReportRule = Item<ApiData<'/api/config/rule', 'get'>>;
export type ReportRuleInput = ApiBody<'/api/config/rule', 'post'>;
export type RuleDefinition = ReportRuleInput['definition'];
export type RuleCondition = NonNullable<RuleDefinition['when']>;
export type StructResult = ApiData<'/api/config/struct_template/evaluate/{id}', 'post'>;
export type Symbol = Item<ApiData<'/api/config/symbol/lists', 'get'>>;
export type StructValues = Record<string, unknown>;

export const FIELD_TYPES = ['text', 'number', 'select', 'multiselect', 'bool'] as const;
export const RULE_TYPES = ['assignment', 'calculation', 'hint', 'code', 'splice', 'exclusion', 'conditions'] as const;
export const KINDS = ['routine', 'frozen', 'cell'] as const;
export const OPS = ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'filled', 'empty'] as const;

export const structKeys = {
  all: ['structured'] as const,
  templates: (q: object) => ['structured', 'templates', q] as const,
  rules: (id: number) => ['structured', 'rules', id] as const,
  symbols: ['structured', 'symbols'] as const,
};

export interface TemplateQuery {
  kind?: '' | 'routine' | 'frozen' | 'cell';
  enabled?: boolean;
  library_id?: number;
}

export function useStructTemplates(q: TemplateQuery = {}, enabled = true) {
  return useQuery({
    queryKey: structKeys.templates(q),
    queryFn: async () => unwrap(await api.GET('/api/config/struct_template', { params: { query: q } })) ?? [],
    enabled,
    staleTime: 30_000,
  });
}

export function useRules(templateId: number | undefined) {
  return useQuery({
    queryKey: structKeys.rules(templateId ?? 0),
    queryFn: async () => unwrap(await api.GET('/api/config/rule', { params: { query: { template_id: templateId ?? 0 } } })) ?? [],
    enabled: !!templateId,
  });
}

export function useSymbols(enabled = true) {
  return useQuery({
    queryKey: structKeys.symbols,
    queryFn: async () => unwrap(await api.GET('/api/config/symbol/lists')) ?? [],
    enabled,
    staleTime: 5 * 60_000,
  });
}

export const evaluate = async (id: number, values: StructValues) =>
  unwrap(await api.POST('/api/config/struct_template/evaluate/{id}', { params: { path: { id } }, body: { values } }));

function useWrite<V>(fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: structKeys.all }) });
}

export function useSaveStructTemplate() {
  return useWrite(async ({ id, body }: { id?: number; body: StructTemplateInput }) =>
    id
      ? unwrap(await api.POST('/api/config/struct_template/{id}', { params: { path: { id } }, body }))
      : unwrap(await api.POST('/api/config/struct_template', { body })),
  );
}

export function useDeleteStructTemplate() {
  return useWrite(async (id: number) => unwrap(await api.DELETE('/api/config/struct_template/{id}', { params: { path: { id } }, body: {} })));
}

export function useRankStructTemplate() {
  return useWrite(async ({ id, position }: { id: number; position: number }) =>
    unwrap(await api.POST('/api/config/struct_template/rank/{id}', { params: { path: { id } }, body: { position } })),
  );
}

export function useSaveRule() {
  return useWrite(async ({ id, body }: { id?: number; body: ReportRuleInput }) =>
    id ? unwrap(await api.POST('/api/config/rule/{id}', { params: { path: { id } }, body })) : unwrap(await api.POST('/api/config/rule', { body })),
  );
}

export function useDeleteRule() {
  return useWrite(async (id: number) => unwrap(await api.DELETE('/api/config/rule/{id}', { params: { path: { id } }, body: {} })));
}

export function useSaveSymbols() {
  return useWrite(async (symbols: { id?: number; text: string }[]) => unwrap(await api.POST('/api/config/symbol/update', { body: { symbols } })));
}

/** Saves the structured values with the case's draft diagnosis. */
export function useSaveStructured(caseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: { template_id: number; values: StructValues }) =>
      unwrap(await api.POST('/api/diagnosis/{id}/structured', { params: { path: { id: caseId } }, body })),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: ['diagnosis'] }), qc.invalidateQueries({ queryKey: caseKeys.all })]),
  });
}
