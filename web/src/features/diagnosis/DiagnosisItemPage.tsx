// /diagnosis/item/:id — the expert's workspace: the case on the left, the
// diagnosis form with templates, earlier versions and the state-dependent
// action bar on the right. Keyboard: Ctrl+S saves, Alt+←/→ previous/next case.
import { useCallback, useEffect, useMemo, useState } from 'react';
import dayjs from 'dayjs';
import { App, Alert, Button, Card, Col, Flex, Result, Row, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { ArrowLeftOutlined, FilePdfOutlined, LeftOutlined, LockOutlined, RightOutlined, SaveOutlined, ToolOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../lib/appData';
import { hasRole } from '../../lib/access';
import { ApiError } from '../../lib/api/errors';
import { useApiError } from '../../components/ui/useApiError';
import { useCase } from '../../entities/case/api';
import { fetchNotViewed, previewReport, saveDraft, useDiagnosisActions, useExpertChoices, useInvitationInfo, useNeighbours, useVersions, type Diagnosis, type Template } from './api';
import { ReplyBox } from './InvitationsPage';
import { availableActions, canEdit, inHesitation, latestNormal, supplementActions, workingSupplement, type SupplementAction, type WorkAction } from './actions';
import { pickDraft, useDraft, EMPTY_DRAFT } from './useDraft';
import { CaseInfo } from './CaseInfo';
import { ActionDialog, type DialogKind, type DialogValues } from './dialogs';
import { ActionBar } from './ActionBar';
import { DiagnosisFields, SupplementStatusTag, VersionList, fieldMax } from './DiagnosisForm';
import { CaseStatusTag, TimingTag } from '../../entities/case/tags';
import { TemplatePicker } from './TemplatePicker';
import { TermPicker } from './TermPicker';
import { useCaretInsert } from './useCaretInsert';
import { TransferActions } from './TransferActions';
import { AdvicePanel } from './AdvicePanel';
import { ShotsPanel } from './ShotsPanel';

export default function DiagnosisItemPage() {
  const { t } = useTranslation();
  const { id: idParam } = useParams();
  const id = Number(idParam) || 0;
  const navigate = useNavigate();
  const { message, modal } = App.useApp();
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

  const d = detail.data;
  // An invited colleague answers beside the case.
  const myInvitations = useInvitationInfo(id, isExpert && !!d && d.expert_id !== me);
  const list = useMemo<Diagnosis[]>(() => versions.data ?? [], [versions.data]);
  const work = latestNormal(list);
  const workState = useMemo(
    () =>
      d
        ? { me, caseStatus: d.status, expertId: d.expert_id, lockedBy: d.locked_by, reviewerId: d.reviewer_id, versions: list, now, amendable: (d.actions ?? []).includes('diagnosis_amend') }
        : null,
    [d, me, list, now],
  );
  const actions = useMemo<WorkAction[]>(() => (workState ? availableActions(workState) : []), [workState]);
  const suppActs = useMemo<SupplementAction[]>(() => (workState ? supplementActions(workState) : []), [workState]);
  const editable = canEdit(actions);
  const hesitating = inHesitation(work, now);
  useEffect(() => {
    if (!hesitating) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [hesitating]);

  // The working text: the latest normal version unless it is published.
  const serverText = versions.isSuccess ? pickDraft(work && work.status !== 'published' ? work : EMPTY_DRAFT) : undefined;
  const draft = useDraft({
    key: `${id}.normal`,
    server: serverText,
    enabled: editable,
    save: async (v) => {
      await saveDraft(id, v);
      await versions.refetch();
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
    save: (v) => acts.supplementSave.mutateAsync(v),
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

  const done = (text: string) => () => void message.success(text);

  const publish = async (delayed: boolean, confirmUnviewed = false): Promise<void> => {
    try {
      await acts.publish.mutateAsync({ delayed, confirm_unviewed: confirmUnviewed });
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
            onOk: () => publish(delayed, true),
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
        if (!v.delayed) return void (await publish(false));
        // Signing into the hesitation period is confirmed first (spec 2 §5).
        return void modal.confirm({
          title: t('diagnosis.confirm.delayed'),
          content: t('diagnosis.confirm.delayedContent'),
          okText: t('common.ok'),
          cancelText: t('common.cancel'),
          onOk: () => publish(true),
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
    switch (a) {
      case 'lock':
        return acts.simple.mutateAsync('lock').then(done(t('diagnosis.done.lock')), showError);
      case 'save':
        return save();
      case 'unlock':
        if (!(await draft.saveNow())) return;
        return acts.simple.mutateAsync('unlock').then(done(t('diagnosis.done.unlock')), showError);
      case 'reviewrecall':
        return confirmThen(t('diagnosis.confirm.reviewrecall'), () => acts.simple.mutateAsync('reviewrecall'), t('diagnosis.done.reviewrecall'));
      case 'recall':
        return confirmThen(t('diagnosis.confirm.recall'), () => acts.simple.mutateAsync('recall'), t('diagnosis.done.recall'), t('diagnosis.confirm.recallContent'));
      case 'supplement':
        return setSupplementOpen(true);
      case 'publish':
        if (!(await draft.saveNow())) return;
        if (!draft.values.opinion.trim()) return void message.warning(t('diagnosis.rule.opinion'));
        return setDialog('publish');
      default:
        return setDialog(a);
    }
  };

  /** Saves the typed supplement; false (with a warning) when it has no opinion yet. */
  const supplementReady = async () => {
    if (!(await suppDraft.saveNow())) return false;
    if (suppDraft.values.opinion.trim()) return true;
    void message.warning(t('diagnosis.rule.opinion'));
    return false;
  };

  const onSuppAction = async (a: SupplementAction) => {
    switch (a) {
      case 'save':
        return save();
      case 'publish':
        return publishSupplement();
      case 'discard':
        return discardSupplement();
      case 'reviewrecall':
        return confirmThen(t('diagnosis.supplement.confirmRecall'), () => acts.supplementRecall.mutateAsync(), t('diagnosis.supplement.done.reviewrecall'));
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

  if (!id) return <Result status="404" title={t('diagnosis.notFound')} />;
  if (detail.isLoading || info.isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (detail.isError || !d)
    return (
      <Result
        status="warning"
        title={detail.error instanceof Error ? detail.error.message : t('diagnosis.notFound')}
        extra={<Button onClick={() => navigate('/diagnosis/manage')}>{t('diagnosis.backToList')}</Button>}
      />
    );

  const lockHolder = d.locked_by == null ? null : d.locked_by === me ? t('diagnosis.lock.me') : d.locked_by === d.expert_id ? d.expert_name || `#${d.locked_by}` : `#${d.locked_by}`;
  const busy = Object.values(acts).some((m) => m.isPending);
  const released = work?.status === 'published';
  const readOnlyReason = !editable && !suppShown
    ? actions.includes('approve')
      ? t('diagnosis.readonly.review', { name: d.expert_name ?? '' })
      : !staffView && d.locked_by != null && d.locked_by !== me
      ? t('diagnosis.readonly.lockedBy', { name: lockHolder })
      : actions.includes('lock')
        ? t('diagnosis.readonly.lockFirst')
        : work?.status === 'to_review'
          ? t('diagnosis.readonly.inReview')
          : released
            ? null
            : staffView
              ? t('diagnosis.readonly.staff')
              : t('diagnosis.readonly.view')
    : null;

  return (
    <div style={{ padding: '12px 16px' }} data-testid="diagnosis-item">
      <Flex align="center" justify="space-between" gap={12} wrap style={{ marginBottom: 10 }}>
        <Flex align="center" gap={10} wrap>
          <Tooltip title={t('diagnosis.backToList')}>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => void go('/diagnosis/manage')} aria-label={t('diagnosis.backToList')} />
          </Tooltip>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {d.patient_name || '—'}
          </Typography.Title>
          <Typography.Text type="secondary" className="tp-mono">
            {d.consult_no}
          </Typography.Text>
          <CaseStatusTag label={d.status_label} />
          <TimingTag timing={d.timing} timeoutAt={d.timeout_at} />
          {d.expedite ? <Tag color="red">{t('case.field.expedite')}</Tag> : null}
          {staffView && d.expert_name && (
            <Tag bordered={false} color="blue" data-testid="case-expert">
              {t('diagnosis.expertTag', { name: d.expert_name })}
            </Tag>
          )}
          {d.staff_name && (
            <Tag icon={<ToolOutlined />} bordered={false} data-testid="case-staff">
              {t('diagnosis.staffTag', { name: d.staff_name })}
            </Tag>
          )}
          {lockHolder && (
            <Tag icon={<LockOutlined />} color={d.locked_by === me ? 'blue' : 'orange'} data-testid="lock-holder">
              {t('diagnosis.lock.heldBy', { name: lockHolder })}
            </Tag>
          )}
        </Flex>
        <Space>
          <TransferActions d={d} me={me} />
          {work && (
            <Button icon={<FilePdfOutlined />} onClick={() => previewReport(id).catch(showError)} data-testid="preview-report">
              {t('diagnosis.previewReport')}
            </Button>
          )}
          {isExpert && (
            <>
              <Tooltip title="Alt + ←">
                <Button icon={<LeftOutlined />} disabled={!nav.data?.prev} onClick={() => void go(`/diagnosis/item/${nav.data!.prev}`)} data-testid="prev-case">
                  {t('diagnosis.prev')}
                </Button>
              </Tooltip>
              <Tooltip title="Alt + →">
                <Button disabled={!nav.data?.next} onClick={() => void go(`/diagnosis/item/${nav.data!.next}`)} data-testid="next-case">
                  {t('diagnosis.next')} <RightOutlined />
                </Button>
              </Tooltip>
            </>
          )}
        </Space>
      </Flex>
      <Row gutter={12}>
        <Col xs={24} xl={13}>
          <Card size="small" styles={{ body: { paddingTop: 4 } }} style={{ height: '100%' }}>
            <CaseInfo d={d} />
          </Card>
        </Col>
        <Col xs={24} xl={11}>
          <div style={{ position: 'sticky', top: 12 }}>
            <Card
              size="small"
              title={
                suppShown ? (
                  <Flex gap={8} align="center">
                    {t('diagnosis.supplement.title')}
                    {supp && <SupplementStatusTag status={supp.status} />}
                  </Flex>
                ) : (
                  t('diagnosis.form.title')
                )
              }
              extra={
                <Flex gap={8} align="center">
                  <SaveState saving={active.saving} dirty={active.dirty} savedAt={active.savedAt} editable={editable || suppEditable} />
                  {(editable || suppEditable) && (
                    <>
                      <TermPicker onPick={caret.insert} onDismiss={() => caret.focus()} />
                      <TemplatePicker onPick={(x: Template, mode) => active.insert({ microscopic: x.microscopic, opinion: x.opinion, gross_description: x.gross_description }, mode)} />
                    </>
                  )}
                </Flex>
              }
              data-testid="diagnosis-form"
            >
              {active.restored && (
                <Alert
                  type="warning"
                  showIcon
                  style={{ marginBottom: 8 }}
                  message={t('diagnosis.restored')}
                  action={
                    <Button size="small" onClick={active.discard}>
                      {t('diagnosis.discardLocal')}
                    </Button>
                  }
                />
              )}
              {readOnlyReason && <Alert type="info" showIcon style={{ marginBottom: 8 }} message={readOnlyReason} />}
              {suppShown && supp && <SupplementReviewState supp={supp} me={me} />}
              {work?.review_note && (work.status === 'returned' || work.status === 'approved') && (
                <Alert
                  type={work.status === 'returned' ? 'error' : 'success'}
                  showIcon
                  style={{ marginBottom: 8 }}
                  message={
                    <span>
                      <b>{work.status === 'returned' ? t('diagnosis.review.returnedBy', { name: work.reviewer_name }) : t('diagnosis.review.approvedBy', { name: work.reviewer_name })}</b>
                      {'：'}
                      <span style={{ whiteSpace: 'pre-wrap' }}>{work.review_note}</span>
                    </span>
                  }
                />
              )}
              {hesitating && work?.release_at && (
                <Alert type="warning" showIcon style={{ marginBottom: 8 }} message={t('diagnosis.hesitation', { time: countdown(Date.parse(work.release_at) - now) })} data-testid="hesitation" />
              )}
              {released && !suppShown ? (
                !hesitating && <Alert type="success" showIcon style={{ marginBottom: 8 }} message={t('diagnosis.published')} />
              ) : staffView ? null : (
                <DiagnosisFields
                  values={active.values}
                  readOnly={!(editable || suppEditable)}
                  onChange={active.setField}
                  bind={caret.bind}
                />
              )}
              <ActionBar
                actions={actions}
                busy={busy}
                saving={active.saving}
                onAction={onAction}
                supplement={
                  suppShown ? { actions: suppActs, onAction: (a) => void onSuppAction(a), onCancel: supp ? undefined : () => setSupplementOpen(false) } : undefined
                }
              />
            </Card>
            <VersionList versions={list} consultNo={d.consult_no} />
            {(myInvitations.data ?? []).map((inv) => (
              <Card
                key={inv.id}
                size="small"
                style={{ marginTop: 12 }}
                title={t('diagnosis.invite.fromTitle', { name: inv.inviter_name })}
                data-testid={`invitation-${inv.id}`}
              >
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{inv.message}</Typography.Paragraph>
                {inv.reply ? (
                  <Alert type="success" showIcon message={t('diagnosis.invite.replyLabel')} description={<span style={{ whiteSpace: 'pre-wrap' }}>{inv.reply}</span>} />
                ) : (
                  <ReplyBox inv={inv} />
                )}
              </Card>
            ))}
            <ShotsPanel d={d} />
            <AdvicePanel d={d} />
          </div>
        </Col>
      </Row>
      <ActionDialog kind={dialog} experts={experts.data ?? []} busy={busy} onCancel={() => setDialog(null)} onOk={onDialog} />
      <ActionDialog kind={suppDialog} supplement experts={experts.data ?? []} busy={busy} onCancel={() => setSuppDialog(null)} onOk={onSuppDialog} />
    </div>
  );
}

type SuppDialog = 'toreview' | 'approve' | 'reviewreturn';

/** Where the supplement's review stands: who reviews it, and their answer. */
function SupplementReviewState({ supp, me }: { supp: Diagnosis; me: number }) {
  const { t } = useTranslation();
  if (supp.status === 'to_review')
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 8 }}
        data-testid="supplement-review-state"
        message={
          supp.reviewer_id === me
            ? t('diagnosis.supplement.reviewRequest', { name: supp.doctor_name })
            : t('diagnosis.supplement.inReview', { name: supp.reviewer_name ?? '' })
        }
      />
    );
  if (!supp.review_note && supp.status !== 'approved') return null;
  const accepted = supp.status === 'approved';
  return (
    <Alert
      type={accepted ? 'success' : supp.status === 'returned' ? 'error' : 'warning'}
      showIcon
      style={{ marginBottom: 8 }}
      data-testid="supplement-review-state"
      message={
        <span>
          <b>{t(accepted ? 'diagnosis.supplement.acceptedBy' : 'diagnosis.supplement.rejectedBy', { name: supp.reviewer_name ?? '' })}</b>
          {supp.review_note && (
            <>
              {t('diagnosis.supplement.noteSeparator')}
              <span style={{ whiteSpace: 'pre-wrap' }}>{supp.review_note}</span>
            </>
          )}
        </span>
      }
      description={supp.status === 'draft' ? t('diagnosis.supplement.resendHint') : undefined}
    />
  );
}

function countdown(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
}

function SaveState({ saving, dirty, savedAt, editable }: { saving: boolean; dirty: boolean; savedAt: Date | null; editable: boolean }) {
  const { t } = useTranslation();
  if (!editable) return null;
  if (saving) return <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('diagnosis.saving')}</Typography.Text>;
  if (dirty)
    return (
      <Typography.Text type="warning" style={{ fontSize: 12 }} data-testid="unsaved">
        <SaveOutlined /> {t('diagnosis.unsavedShort')}
      </Typography.Text>
    );
  if (savedAt) return <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('diagnosis.savedAt', { time: dayjs(savedAt).format('HH:mm:ss') })}</Typography.Text>;
  return null;
}
