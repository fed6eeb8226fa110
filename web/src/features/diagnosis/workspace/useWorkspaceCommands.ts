// What the workspace's buttons and dialogs do: each action of the report and of
// the supplementary report, with its confirmation, its message and its errors.
import { App } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/errors';
import { useApiError } from '../../../components/ui/useApiError';
import { fetchNotViewed } from '../api';
import { reportSpec, supplementSpec, type SupplementAction, type WorkAction } from '../actionRegistry';
import type { DialogKind, DialogValues } from '../dialogs';
import type { Workspace } from './useWorkspace';

export function useWorkspaceCommands(w: Workspace) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message, modal } = App.useApp();
  const showError = useApiError();
  const { id, acts, draft, suppDraft, supp, save, setDialog, setSuppDialog, setSupplementOpen, setShareOpen, setMeetingOpen } = w;

  const done = (text: string) => () => void message.success(text);

  const publish = async (delayed: boolean, confirmUnviewed = false, timeoutReason?: string): Promise<void> => {
    try {
      await acts.publish.mutateAsync({ delayed, confirm_unviewed: confirmUnviewed, ...(timeoutReason ? { timeout_reason: timeoutReason } : {}) });
      setDialog(null);
      void message.success(delayed ? t('diagnosis.done.publishDelayed') : t('diagnosis.done.publish'));
    } catch (e) {
      // Only the unviewed-slides refusal (field confirm_unviewed) can be overridden.
      if (e instanceof ApiError && e.status === 409 && !confirmUnviewed && e.fieldErrors.confirm_unviewed) {
        const n = await fetchNotViewed(id).catch(() => 1);
        if (n > 0) {
          setDialog(null);
          modal.confirm({
            title: t('diagnosis.unviewed.title'),
            content: t('diagnosis.unviewed.content', { count: n }),
            okText: t('diagnosis.unviewed.ok'),
            cancelText: t('common.cancel'),
            onOk: () => publish(delayed, true, timeoutReason),
          });
          return;
        }
      }
      showError(e);
    }
  };

  const onDialog = async (kind: DialogKind, v: DialogValues) => {
    try {
      if (kind === 'publish') {
        if (!v.delayed) return void (await publish(false, false, v.timeout_reason));
        // Signing into the hesitation period is confirmed first (spec 2 §5).
        return void modal.confirm({
          title: t('diagnosis.confirm.delayed'),
          content: t('diagnosis.confirm.delayedContent'),
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          onOk: () => publish(true, false, v.timeout_reason),
        });
      }
      if (kind === 'toreview') {
        if (!(await draft.saveNow())) return;
        await acts.toReview.mutateAsync(v.reviewer_id!);
        done(t('diagnosis.done.toreview'))();
      } else if (kind === 'return') {
        await acts.returnCase.mutateAsync(v.reason!.trim());
        done(t('diagnosis.done.return'))();
        // The case has left my hands: back to the list.
        setDialog(null);
        return navigate('/diagnosis/manage');
      } else if (kind === 'amend') {
        await acts.amend.mutateAsync(v.reason!.trim());
        done(t('diagnosis.done.amend'))();
      } else if (kind === 'delay') {
        await acts.delay.mutateAsync({ days: v.days!, reason: v.reason!.trim() });
        done(t('diagnosis.done.delay'))();
      } else if (kind === 'invite') {
        await acts.invite.mutateAsync({ invitee_ids: v.invitee_ids!, message: v.message!.trim() });
        done(t('diagnosis.done.invite'))();
      } else if (kind === 'approve') {
        await acts.approve.mutateAsync(v.note?.trim() ?? '');
        done(t('diagnosis.done.approve'))();
      } else if (kind === 'reviewreturn') {
        await acts.reviewReturn.mutateAsync(v.note!.trim());
        done(t('diagnosis.done.reviewreturn'))();
      }
      setDialog(null);
    } catch (e) {
      showError(e);
    }
  };

  const confirmThen = (title: string, run: () => Promise<unknown>, ok: string, content?: string) =>
    modal.confirm({ title, content, okText: t('common.ok'), cancelText: t('common.cancel'), onOk: () => run().then(done(ok), showError) });

  const onAction = async (a: WorkAction) => {
    const spec = reportSpec(a);
    switch (a) {
      case 'lock':
        return acts.simple.mutateAsync('lock').then(done(t('diagnosis.done.lock')), showError);
      case 'save':
        return save();
      case 'unlock':
        if (!(await draft.saveNow())) return;
        return acts.simple.mutateAsync('unlock').then(done(t('diagnosis.done.unlock')), showError);
      case 'reviewrecall':
      case 'recall':
        return confirmThen(t(spec.confirm!.title), () => acts.simple.mutateAsync(a), t(spec.confirm!.done), spec.confirm!.content && t(spec.confirm!.content));
      case 'supplement':
        return setSupplementOpen(true);
      case 'share':
        return setShareOpen(true);
      case 'meeting':
        return setMeetingOpen(true);
      case 'publish':
        if (!(await draft.saveNow())) return;
        if (!draft.values.opinion.trim()) return void message.warning(t('diagnosis.rule.opinion'));
        return setDialog(spec.dialog!);
      default:
        return spec.dialog && setDialog(spec.dialog);
    }
  };

  /** Saves the typed supplement; false (with a warning) when it has no opinion yet. */
  const supplementReady = async () => {
    if (!(await suppDraft.saveNow())) return false;
    if (suppDraft.values.opinion.trim()) return true;
    void message.warning(t('diagnosis.rule.opinion'));
    return false;
  };

  const publishSupplement = async () => {
    if (!(await supplementReady())) return;
    modal.confirm({
      title: t('diagnosis.confirm.supplement'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await acts.supplementPublish.mutateAsync();
          setSupplementOpen(false);
          void message.success(t('diagnosis.done.supplement'));
        } catch (e) {
          showError(e);
        }
      },
    });
  };

  const discardSupplement = () =>
    modal.confirm({
      title: t('diagnosis.confirm.discardSupplement'),
      okText: t('common.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        if (!supp) return;
        try {
          await acts.supplementDiscard.mutateAsync(supp.id);
          suppDraft.discard();
          setSupplementOpen(false);
          void message.success(t('diagnosis.done.discardSupplement'));
        } catch (e) {
          showError(e);
        }
      },
    });

  const onSuppAction = async (a: SupplementAction) => {
    switch (a) {
      case 'save':
        return save();
      case 'publish':
        return publishSupplement();
      case 'discard':
        return discardSupplement();
      case 'reviewrecall': {
        const c = supplementSpec(a).confirm!;
        return confirmThen(t(c.title), () => acts.supplementRecall.mutateAsync(), t(c.done));
      }
      case 'toreview':
        if (!(await supplementReady())) return;
        return setSuppDialog('toreview');
      default:
        return setSuppDialog(a);
    }
  };

  const onSuppDialog = async (kind: DialogKind, v: DialogValues) => {
    try {
      if (kind === 'toreview') await acts.supplementToReview.mutateAsync(v.reviewer_id!);
      else if (kind === 'approve') await acts.supplementApprove.mutateAsync(v.note?.trim() ?? '');
      else await acts.supplementReturn.mutateAsync(v.note!.trim());
      setSuppDialog(null);
      void message.success(t(`diagnosis.supplement.done.${kind}`));
    } catch (e) {
      showError(e);
    }
  };

  return { onAction, onDialog, onSuppAction, onSuppDialog };
}
