// Diagnosis API: the expert's workspace, lists, invitations and templates. Every
// write invalidates both the "diagnosis" and the "consultation" prefixes so the
// case detail, lists, tab counts and menu badges refresh together.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { toApiError, unwrap } from '../../lib/api/errors';
import type { ApiBody, ApiData } from '../../lib/api/types';
import { caseKeys, casePath as path } from '../../entities/case/api';

type Item<T> = T extends readonly (infer I)[] ? I : never;

export type Diagnosis = Item<ApiData<'/api/diagnosis/{id}', 'get'>>;
export type DiagnosisInput = ApiBody<'/api/diagnosis/{id}/save', 'post'>;
export type Invitation = Item<ApiData<'/api/diagnosis/invitations', 'get'>>;
export type Template = Item<ApiData<'/api/config/template', 'get'>>;
export type TemplateInput = ApiBody<'/api/config/template', 'post'>;
export type Term = Item<ApiData<'/api/config/term', 'get'>>;
export type TermInput = ApiBody<'/api/config/term', 'post'>;
export type DashboardCounts = ApiData<'/api/diagnosis/list/statistical_count', 'get'>;
export type Person = Item<ApiData<'/api/consultation/resources/{id}/exp_list/hos', 'get'>>;

export const diagKeys = {
  all: ['diagnosis'] as const,
  versions: (id: number) => ['diagnosis', 'versions', id] as const,
  invited: (id: number) => ['diagnosis', 'invited', id] as const,
  invitations: (sent: boolean) => ['diagnosis', 'invitations', sent] as const,
  counts: ['diagnosis', 'counts'] as const,
  templates: ['diagnosis', 'templates'] as const,
  terms: ['diagnosis', 'terms'] as const,
  notViewed: (id: number) => ['diagnosis', 'not_viewed', id] as const,
  nav: (id: number) => ['diagnosis', 'nav', id] as const,
};
export const fetchDashboardCounts = async () => unwrap(await api.GET('/api/diagnosis/list/statistical_count'));

export function useDashboardCounts(enabled = true) {
  return useQuery({ queryKey: diagKeys.counts, queryFn: fetchDashboardCounts, enabled, staleTime: 20_000 });
}

export function useVersions(id: number) {
  return useQuery({
    queryKey: diagKeys.versions(id),
    queryFn: async () => unwrap(await api.GET('/api/diagnosis/{id}', path(id))) ?? [],
    enabled: id > 0,
  });
}

/** Earlier consultations of the same patient, with their published diagnosis. */
export function useSameCases(id: number) {
  return useQuery({
    queryKey: ['diagnosis', 'same_case', id],
    queryFn: async () => unwrap(await api.GET('/api/diagnosis/{id}/same_case', path(id))) ?? [],
    enabled: id > 0,
    staleTime: 5 * 60_000,
  });
}

export function useCaseInvitations(id: number) {
  return useQuery({
    queryKey: diagKeys.invited(id),
    queryFn: async () => unwrap(await api.GET('/api/diagnosis/{id}/invited', path(id))) ?? [],
    enabled: id > 0,
  });
}

/** The caller's own invitations to a case (answered in the workspace). */
export function useInvitationInfo(id: number, enabled = true) {
  return useQuery({
    queryKey: ['diagnosis', 'invited_info', id],
    queryFn: async () => unwrap(await api.GET('/api/diagnosis/{id}/invited/info', path(id))) ?? [],
    enabled: enabled && id > 0,
  });
}

export function useInvitations(sent: boolean) {
  return useQuery({
    queryKey: diagKeys.invitations(sent),
    queryFn: async () => unwrap(await api.GET('/api/diagnosis/invitations', { params: { query: { sent } } })) ?? [],
  });
}

/** Experts of the case's center to pick for a referral or handover (other), a review or an invitation. */
export function useExpertChoices(id: number, choice: 'other' | 'review' | 'invite', enabled: boolean) {
  return useQuery({
    queryKey: ['diagnosis', 'experts', id, choice],
    queryFn: async () => unwrap(await api.GET(`/api/diagnosis/{id}/exp_list/${choice}`, path(id))) ?? [],
    enabled: enabled && id > 0,
  });
}

export function useTemplates(enabled = true) {
  return useQuery({
    queryKey: diagKeys.templates,
    queryFn: async () => unwrap(await api.GET('/api/config/template')) ?? [],
    enabled,
    staleTime: 60_000,
  });
}

export function useTerms(enabled = true) {
  return useQuery({
    queryKey: diagKeys.terms,
    queryFn: async () => unwrap(await api.GET('/api/config/term')) ?? [],
    enabled,
    staleTime: 60_000,
  });
}

export const fetchNotViewed = async (id: number) => unwrap(await api.GET('/api/diagnosis/{id}/not_view_count', path(id)));

export function useNeighbours(id: number, enabled = true) {
  return useQuery({
    queryKey: diagKeys.nav(id),
    queryFn: async () => {
      const [prev, next] = await Promise.all([
        api.GET('/api/diagnosis/{id}/getPrevConsult_ID', path(id)).then((r) => (r.data?.data ?? 0)),
        api.GET('/api/diagnosis/{id}/getNextConsult_ID', path(id)).then((r) => (r.data?.data ?? 0)),
      ]);
      return { prev, next };
    },
    enabled: enabled && id > 0,
    staleTime: 30_000,
  });
}

/** A write that refreshes everything diagnosis- and case-related afterwards. */
function useWrite<V>(fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: diagKeys.all }), qc.invalidateQueries({ queryKey: caseKeys.all })]),
  });
}

export type SimpleAction = 'lock' | 'unlock' | 'reviewrecall' | 'recall';

export function useDiagnosisActions(id: number) {
  const p = path(id);
  return {
    simple: useWrite(async (a: SimpleAction) => {
      const r =
        a === 'lock'
          ? await api.POST('/api/diagnosis/{id}/lock', p)
          : a === 'unlock'
            ? await api.POST('/api/diagnosis/{id}/unlock', p)
            : a === 'reviewrecall'
              ? await api.POST('/api/diagnosis/{id}/reviewrecall', p)
              : await api.POST('/api/diagnosis/{id}/recall', p);
      return unwrap(r);
    }),
    toReview: useWrite(async (reviewer_id: number) => unwrap(await api.POST('/api/diagnosis/{id}/toreview', { ...p, body: { reviewer_id } }))),
    approve: useWrite(async (note: string) => unwrap(await api.POST('/api/diagnosis/{id}/review_approve', { ...p, body: { note } }))),
    reviewReturn: useWrite(async (note: string) => unwrap(await api.POST('/api/diagnosis/{id}/reviewreturn', { ...p, body: { note } }))),
    publish: useWrite(async (body: { delayed: boolean; confirm_unviewed: boolean; timeout_reason?: string }) => unwrap(await api.POST('/api/diagnosis/{id}/publish', { ...p, body }))),
    returnCase: useWrite(async (reason: string) => unwrap(await api.POST('/api/diagnosis/{id}/return', { ...p, body: { reason } }))),
    amend: useWrite(async (reason: string) => unwrap(await api.POST('/api/diagnosis/{id}/update', { ...p, body: { reason } }))),
    delay: useWrite(async (body: { days: number; reason: string }) => unwrap(await api.POST('/api/diagnosis/{id}/delay', { ...p, body }))),
    invite: useWrite(async (body: { invitee_ids: number[]; message: string }) => unwrap(await api.POST('/api/diagnosis/{id}/invited', { ...p, body }))),
    supplementSave: useWrite(async (body: DiagnosisInput) => unwrap(await api.POST('/api/consultation/append_diagnosis/{id}', { ...p, body }))),
    supplementPublish: useWrite(async () => unwrap(await api.POST('/api/diagnosis/{id}/append_diagnosis/publish', p))),
    supplementToReview: useWrite(async (reviewer_id: number) =>
      unwrap(await api.POST('/api/diagnosis/{id}/append_diagnosis/toreview', { ...p, body: { reviewer_id } })),
    ),
    supplementRecall: useWrite(async () => unwrap(await api.POST('/api/diagnosis/{id}/append_diagnosis/reviewrecall', p))),
    supplementApprove: useWrite(async (note: string) => unwrap(await api.POST('/api/diagnosis/{id}/append_diagnosis/approve', { ...p, body: { note } }))),
    supplementReturn: useWrite(async (note: string) =>
      unwrap(await api.POST('/api/diagnosis/{id}/append_diagnosis/reviewreturn', { ...p, body: { note } })),
    ),
    supplementDiscard: useWrite(async (supplementId: number) =>
      unwrap(await api.DELETE('/api/diagnosis/{id}/append_diagnosis/{supplement_id}', { params: { path: { id, supplement_id: supplementId } } })),
    ),
  };
}

/** Saves the working draft (used by the autosave hook; no list refresh, only the versions). */
export async function saveDraft(id: number, body: DiagnosisInput) {
  return unwrap(await api.POST('/api/diagnosis/{id}/save', { ...path(id), body }));
}

export function useReply() {
  return useWrite(async ({ caseId, inviteId, reply }: { caseId: number; inviteId: number; reply: string }) =>
    unwrap(await api.POST('/api/diagnosis/{id}/invited/{invite_id}', { params: { path: { id: caseId, invite_id: inviteId } }, body: { reply } })),
  );
}

export function useSaveTemplate() {
  return useWrite(async ({ id, body }: { id?: number; body: TemplateInput }) =>
    id ? unwrap(await api.POST('/api/config/template/{id}', { params: { path: { id } }, body })) : unwrap(await api.POST('/api/config/template', { body })),
  );
}

export function useDeleteTemplate() {
  return useWrite(async (id: number) => unwrap(await api.DELETE('/api/config/template/{id}', { params: { path: { id } } })));
}

export function useSaveTerm() {
  return useWrite(async ({ id, body }: { id?: number; body: TermInput }) =>
    id ? unwrap(await api.POST('/api/config/term/{id}', { params: { path: { id } }, body })) : unwrap(await api.POST('/api/config/term', { body })),
  );
}

export function useDeleteTerm() {
  return useWrite(async (id: number) => unwrap(await api.DELETE('/api/config/term/{id}', { params: { path: { id } } })));
}

export function useReportActions() {
  return {
    print: useWrite(async (id: number) => unwrap(await api.POST('/api/report/print/{id}', path(id)))),
    deliver: useWrite(async (id: number) => unwrap(await api.POST('/api/report/deliver/{id}', path(id)))),
  };
}

/** Fetches a protected file through the API client (token attached) and opens it in a new tab, or saves it under filename. */
export async function openFile(fileId: number, filename?: string) {
  const win = filename ? null : window.open('', '_blank');
  const res = await api.GET('/api/files/{id}', { params: { path: { id: fileId } }, parseAs: 'blob' });
  if (res.error !== undefined || !res.data) {
    win?.close();
    throw toApiError(res.response.status, res.error, res.response.statusText || 'Request failed');
  }
  openBlobData(res.data as Blob, win, filename);
}

export function openBlobData(blob: Blob, win: Window | null, filename?: string) {
  const href = URL.createObjectURL(blob);
  if (filename) {
    const a = document.createElement('a');
    a.href = href;
    a.download = filename;
    a.click();
  } else if (win) win.location.href = href;
  else window.open(href, '_blank');
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/**
 * Opens the case's report as PDF in a new tab (a given version, or the current one),
 * or, with filename, downloads it under that name.
 */
export async function previewReport(id: number, diagnosisId?: number, filename?: string) {
  const win = filename ? null : window.open('', '_blank');
  const res = await api.GET('/api/diagnosis/report/preview/{id}', {
    params: { path: { id }, query: diagnosisId ? { diagnosis_id: diagnosisId } : {} },
    parseAs: 'blob',
  });
  if (res.error !== undefined || !res.data) {
    win?.close();
    throw toApiError(res.response.status, res.error, res.response.statusText || 'Request failed');
  }
  openBlobData(new Blob([res.data as Blob], { type: 'application/pdf' }), win, filename);
}

/** The file name a downloaded report gets: case number, kind and version. */
export const reportFilename = (consultNo: string, v?: { type: number; version: number }) =>
  `${consultNo || 'report'}${v ? (v.type === 1 ? `-supplement-v${v.version}` : `-report-v${v.version}`) : '-report'}.pdf`;
