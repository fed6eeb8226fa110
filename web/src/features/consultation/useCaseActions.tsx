// One place that carries out case actions for every screen: confirmations,
// reason/expert/charge dialogs and batch outcome dialogs. Screens call
// `run(action, cases)` and render `holder` once.
import { useRef, useState, type ReactNode } from 'react';
import { App } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../components/ui/useApiError';
import { useConfirm, useConfirmDelete } from '../../components/ui/useConfirm';
import {
  useBatchBindExpert,
  useBatchRecall,
  useBatchRecallAgree,
  useBatchSubmit,
  useBindExpert,
  useBindStaff,
  useCharge,
  useConsultAgain,
  useDeleteCase,
  useRecall,
  useRecallDecision,
  useReferral,
  useRefund,
  useReturnToSite,
  useSubmitCase,
  type Outcome,
} from './api';
import { ChargeModal, ExpertModal, OutcomeModal, ReasonModal, StaffModal } from './dialogs';
import { ChargeStatus } from '../../entities/case/codes';

/** The little a dialog needs to know about a case. */
export interface CaseRef {
  id: number;
  consult_no: string;
  patient_name?: string;
  center_id?: number | null;
  library_id?: number | null;
  expert_id?: number | null;
  charge_status?: number;
}

export type ActionName =
  | 'view'
  | 'edit'
  | 'delete'
  | 'submit'
  | 'charge'
  | 'charge_submit'
  | 'refund'
  | 'consult_again'
  | 'recall'
  | 'recall_agree'
  | 'recall_reject'
  | 'recall_ignore'
  | 'bind_expert'
  | 'bind_staff'
  | 'referral'
  | 'return_to_site'
  | 'batch_submit'
  | 'batch_recall'
  | 'batch_bind_expert'
  | 'batch_recall_agree';

type Dialog =
  | { kind: 'reason'; action: 'recall' | 'batch_recall' | 'recall_reject' | 'recall_ignore' | 'return_to_site'; cases: CaseRef[] }
  | { kind: 'expert'; action: 'bind_expert' | 'referral' | 'batch_bind_expert'; cases: CaseRef[] }
  | { kind: 'staff'; cases: CaseRef[] }
  | { kind: 'charge'; cases: CaseRef[]; submitAfter: boolean; onDone?: () => void }
  | { kind: 'outcome'; title: string; outcomes: Outcome[]; cases: CaseRef[] };

export interface RunOptions {
  /** Called after the action succeeded (e.g. to clear a selection or leave a page). */
  onDone?: () => void;
}

export function useCaseActions(opts: { onView?: (c: CaseRef) => void } = {}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const confirmDelete = useConfirmDelete();
  const showError = useApiError();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const doneRef = useRef<(() => void) | undefined>(undefined);

  const del = useDeleteCase();
  const submit = useSubmitCase();
  const again = useConsultAgain();
  const batchSubmit = useBatchSubmit();
  const recall = useRecall();
  const batchRecall = useBatchRecall();
  const decide = useRecallDecision();
  const batchAgree = useBatchRecallAgree();
  const bind = useBindExpert();
  const batchBind = useBatchBindExpert();
  const bindStaff = useBindStaff();
  const referral = useReferral();
  const giveBack = useReturnToSite();
  const charge = useCharge();
  const refund = useRefund();

  const finished = () => {
    void message.success(t('common.done'));
    doneRef.current?.();
    doneRef.current = undefined;
  };
  const close = () => setDialog(null);
  const label = (c: CaseRef) => c.consult_no || c.patient_name || `#${c.id}`;
  const showOutcomes = (title: string, got: Outcome[] | null, cases: CaseRef[]) => {
    const outcomes = got ?? [];
    doneRef.current?.();
    doneRef.current = undefined;
    setDialog({ kind: 'outcome', title, outcomes, cases });
  };

  function run(action: ActionName, cases: CaseRef[], o: RunOptions = {}) {
    doneRef.current = o.onDone;
    const c = cases[0];
    if (!c) return;
    const ids = cases.map((x) => x.id);
    switch (action) {
      case 'view':
        return opts.onView ? opts.onView(c) : navigate(`/case/detail/${c.id}`);
      case 'edit':
        return navigate(`/case/register/${c.id}`);
      case 'delete':
        return confirmDelete(() => del.mutateAsync(c.id).then(() => o.onDone?.()), { content: t('case.confirm.delete', { no: label(c) }) });
      case 'submit':
        if (c.charge_status === ChargeStatus.None) return setDialog({ kind: 'charge', cases: [c], submitAfter: true, onDone: o.onDone });
        return confirm(t('case.confirm.submit', { no: label(c) }), () => submit.mutateAsync(c.id).then(finished, showError));
      case 'charge':
      case 'charge_submit':
        return setDialog({ kind: 'charge', cases: [c], submitAfter: action === 'charge_submit', onDone: o.onDone });
      case 'refund':
        return confirm(t('case.confirm.refund', { no: label(c) }), () => refund.mutateAsync(c.id).then(finished, showError), t('case.confirm.refundNote'));
      case 'consult_again':
        return confirm(t('case.confirm.again', { no: label(c) }), () => again.mutateAsync(c.id).then(finished, showError), t('case.confirm.againNote'));
      case 'batch_submit':
        return confirm(t('case.confirm.batchSubmit', { count: ids.length }), () =>
          batchSubmit.mutateAsync(ids).then((out) => showOutcomes(t('case.action.batchSubmit'), out, cases), showError),
        t('case.confirm.batchSubmitNote'));
      case 'batch_recall_agree':
        return confirm(t('case.confirm.batchAgree', { count: ids.length }), () =>
          batchAgree.mutateAsync(ids).then((out) => showOutcomes(t('case.action.batchAgree'), out, cases), showError),
        );
      case 'recall_agree':
        return confirm(t('case.confirm.agree', { no: label(c) }), () => decide.mutateAsync({ id: c.id, decision: 'agree' }).then(finished, showError), t('case.confirm.agreeNote'));
      case 'recall':
      case 'batch_recall':
      case 'recall_reject':
      case 'recall_ignore':
      case 'return_to_site':
        return setDialog({ kind: 'reason', action, cases });
      case 'bind_staff':
        return setDialog({ kind: 'staff', cases: [c] });
      case 'bind_expert':
      case 'referral':
      case 'batch_bind_expert':
        return setDialog({ kind: 'expert', action, cases });
    }
  }

  let holder: ReactNode = null;
  if (dialog?.kind === 'reason') {
    const { action, cases } = dialog;
    const c = cases[0];
    const cfg = {
      recall: { title: t('case.action.recall'), label: t('case.reason.recall'), desc: t('case.reason.recallNote', { no: label(c) }), required: true, danger: false },
      batch_recall: { title: t('case.action.batchRecall'), label: t('case.reason.recall'), desc: t('case.reason.batchRecallNote', { count: cases.length }), required: true, danger: false },
      recall_reject: { title: t('case.action.recallReject'), label: t('case.reason.reject'), desc: t('case.reason.rejectNote', { no: label(c) }), required: true, danger: true },
      recall_ignore: { title: t('case.action.recallIgnore'), label: t('case.reason.remark'), desc: t('case.reason.ignoreNote', { no: label(c) }), required: false, danger: false },
      return_to_site: { title: t('case.action.returnToSite'), label: t('case.reason.return'), desc: t('case.reason.returnNote', { no: label(c) }), required: true, danger: true },
    }[action];
    const ok = async (reason: string) => {
      try {
        if (action === 'recall') await recall.mutateAsync({ id: c.id, reason });
        else if (action === 'batch_recall') {
          const out = await batchRecall.mutateAsync({ ids: cases.map((x) => x.id), reason });
          return showOutcomes(t('case.action.batchRecall'), out, cases);
        } else if (action === 'recall_reject') await decide.mutateAsync({ id: c.id, decision: 'reject', reason });
        else if (action === 'recall_ignore') await decide.mutateAsync({ id: c.id, decision: 'ignore', reason });
        else await giveBack.mutateAsync({ id: c.id, reason });
        close();
        finished();
      } catch (e) {
        showError(e);
      }
    };
    holder = <ReasonModal open title={cfg.title} description={cfg.desc} label={cfg.label} required={cfg.required} danger={cfg.danger} presets={action === 'return_to_site'} onCancel={close} onOk={ok} />;
  } else if (dialog?.kind === 'expert') {
    const { action, cases } = dialog;
    const c = cases[0];
    const centers = new Set(cases.map((x) => x.center_id ?? 0));
    const ok = async (expertId: number, reason: string) => {
      try {
        if (action === 'bind_expert') await bind.mutateAsync({ id: c.id, expertId });
        else if (action === 'referral') await referral.mutateAsync({ id: c.id, expertId, reason });
        else {
          const out = await batchBind.mutateAsync({ ids: cases.map((x) => x.id), expertId });
          return showOutcomes(t('case.action.batchBind'), out, cases);
        }
        close();
        finished();
      } catch (e) {
        showError(e);
      }
    };
    const title = action === 'referral' ? t('case.action.referral') : action === 'batch_bind_expert' ? t('case.action.batchBind') : t('case.action.bindExpert');
    const note =
      action === 'batch_bind_expert'
        ? centers.size > 1
          ? t('case.expert.mixedCenters')
          : t('case.expert.batchNote', { count: cases.length })
        : t('case.expert.caseNote', { no: label(c) });
    const libraries = new Set(cases.map((x) => x.library_id));
    holder = <ExpertModal open title={title} note={note} centerId={centers.size === 1 ? c.center_id : null} libraryId={libraries.size === 1 ? c.library_id : null} excludeId={action === 'referral' ? c.expert_id : undefined} withReason={action === 'referral'} onCancel={close} onOk={ok} />;
  } else if (dialog?.kind === 'staff') {
    const c = dialog.cases[0];
    const ok = async (staffId: number) => {
      try {
        await bindStaff.mutateAsync({ id: c.id, staffId });
        close();
        finished();
      } catch (e) {
        showError(e);
      }
    };
    holder = <StaffModal caseId={c.id} note={t('case.staff.note', { no: label(c) })} onCancel={close} onOk={ok} />;
  } else if (dialog?.kind === 'charge') {
    const { cases, submitAfter, onDone } = dialog;
    const c = cases[0];
    const ok = async (items: { item_id: number; quantity: number }[]) => {
      try {
        if (c.charge_status !== ChargeStatus.Charged) await charge.mutateAsync({ id: c.id, items });
      } catch (e) {
        return showError(e);
      }
      if (submitAfter) {
        try {
          await submit.mutateAsync(c.id);
          void message.success(t('case.charge.chargedSubmitted'));
        } catch (e) {
          showError(e);
          void message.info(t('case.charge.chargedOnly'));
        }
      } else void message.success(t('case.charge.charged'));
      close();
      onDone?.();
    };
    holder = (
      <ChargeModal
        open
        title={t(submitAfter ? 'case.charge.titleSubmit' : 'case.charge.title', { no: label(c) })}
        okText={t(submitAfter ? 'case.charge.confirmSubmit' : 'case.charge.confirm')}
        onCancel={close}
        onOk={ok}
      />
    );
  } else if (dialog?.kind === 'outcome') {
    const byId = new Map(dialog.cases.map((x) => [x.id, label(x)]));
    holder = <OutcomeModal title={dialog.title} outcomes={dialog.outcomes} names={(id) => byId.get(id) ?? `#${id}`} onClose={close} />;
  }

  return { run, holder };
}
