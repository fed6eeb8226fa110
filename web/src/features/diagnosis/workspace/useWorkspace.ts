// The state of the expert's workspace (/diagnosis/item/:id): the case, its
// diagnosis versions, what the signed-in user may do with them, the two drafts
// (the report and a supplementary report) and the keyboard. The page and its
// panels only draw what this returns.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { App } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../../lib/appData';
import { hasRole } from '../../../lib/access';
import { useApiError } from '../../../components/ui/useApiError';
import { useCase } from '../../../entities/case/api';
import { saveDraft, useDiagnosisActions, useExpertChoices, useInvitationInfo, useNeighbours, useVersions, type Diagnosis } from '../api';
import { inHesitation, latestNormal, workingSupplement } from '../versions';
import { reportActions, supplementActions, type SupplementAction, type WorkAction } from '../actionRegistry';
import { asInput, pickDraft, useDraft, EMPTY_DRAFT } from '../useDraft';
import { fieldMax } from '../DiagnosisForm';
import { useCaretInsert } from '../useCaretInsert';
import type { DialogKind } from '../dialogs';

export type SuppDialog = 'toreview' | 'approve' | 'reviewreturn';

export function useWorkspace() {
  const { t } = useTranslation();
  const { id: idParam } = useParams();
  const id = Number(idParam) || 0;
  const navigate = useNavigate();
  const { message } = App.useApp();
  const showError = useApiError();
  const info = useAuthInfo();
  const me = info.data?.user.id ?? 0;
  const roles = (info.data?.roles ?? []).map((r) => r.role);
  const isExpert = hasRole(roles, 'expert');
  // A technician supports the expert: the case, its slides and thread, and the report once released.
  const staffView = !isExpert && hasRole(roles, 'staff');
  const detail = useCase(id);
  const versions = useVersions(id);
  const nav = useNeighbours(id, isExpert);
  const acts = useDiagnosisActions(id);
  const [dialog, setDialog] = useState<DialogKind | null>(null);
  const [suppDialog, setSuppDialog] = useState<SuppDialog | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [supplementOpen, setSupplementOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [meetingOpen, setMeetingOpen] = useState(false);

  const d = detail.data;
  // An invited colleague answers beside the case.
  const myInvitations = useInvitationInfo(id, isExpert && !!d && d.expert_id !== me);
  const list = useMemo<Diagnosis[]>(() => versions.data ?? [], [versions.data]);
  const work = latestNormal(list);
  // What the user may do is the server's list (the registry draws it).
  const actions = useMemo<WorkAction[]>(() => reportActions(d?.actions).map((a) => a.kind), [d?.actions]);
  const suppActs = useMemo<SupplementAction[]>(() => supplementActions(d?.actions).map((a) => a.kind), [d?.actions]);
  // The form is editable only with the lock and no review pending.
  const editable = actions.includes('save');
  const hesitating = inHesitation(work, now);
  useEffect(() => {
    if (!hesitating) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [hesitating]);
  // When the hesitation period ends the report is released: the server's actions change.
  const wasHesitating = useRef(false);
  const refetchCase = detail.refetch;
  useEffect(() => {
    if (wasHesitating.current && !hesitating) void refetchCase();
    wasHesitating.current = hesitating;
  }, [hesitating, refetchCase]);

  // The working text: the latest normal version unless it is published.
  const serverText = versions.isSuccess ? pickDraft(work && work.status !== 'published' ? work : EMPTY_DRAFT) : undefined;
  const draft = useDraft({
    key: `${id}.normal`,
    server: serverText,
    enabled: editable,
    save: async (v) => {
      await saveDraft(id, asInput(v));
      // Saving an answered review's draft makes it a draft to review again: the actions change.
      await Promise.all([versions.refetch(), detail.refetch()]);
    },
    onError: showError,
  });

  // The supplementary report: its own draft while the report is released,
  // shown to its author and, while it waits for them, to its reviewer.
  const supp = workingSupplement(list);
  const suppShown = suppActs.length > 0 && (!!supp || supplementOpen);
  const suppEditable = suppShown && suppActs.includes('save');
  const suppDraft = useDraft({
    key: `${id}.supplement`,
    server: versions.isSuccess ? pickDraft(supp ?? EMPTY_DRAFT) : undefined,
    enabled: suppEditable,
    save: ({ frozen_verdict: _verdict, ...v }) => acts.supplementSave.mutateAsync(v),
    onError: showError,
  });
  const active = suppShown ? suppDraft : draft;
  const caret = useCaretInsert(active.values, active.setField, fieldMax);

  /** Moves to another screen after saving what is typed (never loses text). */
  const go = useCallback(
    async (to: string) => {
      if (draft.dirty && !(await draft.saveNow())) return;
      if (suppDraft.dirty && !(await suppDraft.saveNow())) return;
      navigate(to);
    },
    [draft, suppDraft, navigate],
  );

  const save = useCallback(async () => {
    if (await active.saveNow()) void message.success(t('common.saved'));
  }, [active, message, t]);

  // Keyboard: Ctrl+S saves; Alt+← / Alt+→ move between cases.
  useEffect(() => {
    const h = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        if (editable || suppEditable) void save();
      } else if (e.altKey && e.key === 'ArrowLeft' && nav.data?.prev) void go(`/diagnosis/item/${nav.data.prev}`);
      else if (e.altKey && e.key === 'ArrowRight' && nav.data?.next) void go(`/diagnosis/item/${nav.data.next}`);
    };
    window.addEventListener('keydown', h);
    return () => window.removeEventListener('keydown', h);
  }, [save, editable, suppEditable, nav.data, go]);

  const experts = useExpertChoices(id, dialog === 'invite' ? 'invite' : 'review', dialog === 'toreview' || dialog === 'invite' || suppDialog === 'toreview');
  const busy = Object.values(acts).some((m) => m.isPending);

  return {
    id, me, isExpert, staffView, info, detail, d, nav, acts, experts, myInvitations, busy,
    list, work, now, hesitating, released: work?.status === 'published',
    actions, editable, draft,
    supp, suppActs, suppShown, suppEditable, suppDraft, setSupplementOpen, shareOpen, setShareOpen, meetingOpen, setMeetingOpen,
    active, caret, go, save,
    dialog, setDialog, suppDialog, setSuppDialog,
  };
}

export type Workspace = ReturnType<typeof useWorkspace>;
