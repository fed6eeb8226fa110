// The frozen screens of spec 1 §2.
import { useState } from 'react';
import { App, Button, Modal } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { useApiError } from '../../components/ui/useApiError';
import { AppointmentList } from './AppointmentList';
import { ArriveDialog, AssignDialog, ReasonDialog } from './dialogs';
import { BookDrawer } from './BookDrawer';
import { useParaffin, useSimpleAction, type Appointment } from './api';
import { FrozenComparison } from '../../entities/case/FrozenComparison';

function useActionButtons() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const showError = useApiError();
  const simple = useSimpleAction();
  const paraffin = useParaffin();
  const [comparing, setComparing] = useState<Appointment | null>(null);
  const navigate = useNavigate();
  const [reason, setReason] = useState<{ a: Appointment; kind: 'return' | 'recall' } | null>(null);
  const [assigning, setAssigning] = useState<Appointment | null>(null);
  const [arriving, setArriving] = useState<Appointment | null>(null);
  const [resubmitting, setResubmitting] = useState<Appointment | null>(null);
  const run = (a: Appointment, action: 'accept' | 'ignore' | 'unignore' | 'recall_agree' | 'recall_reject') =>
    simple.mutate({ id: a.id, action }, { onSuccess: () => void message.success(t(`frozen.done.${action}`)), onError: (e) => showError(e) });
  // The paraffin case is a draft the site completes in the registration form.
  const registerParaffin = (a: Appointment) =>
    modal.confirm({
      title: t('frozen.action.after_frozen_paraffin_block'),
      content: t('frozen.paraffinConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () =>
        paraffin.mutateAsync(a.id).then(
          (r) => {
            void message.success(t('frozen.done.paraffin'));
            if (r.paraffin_case_id) navigate(`/case/register/${r.paraffin_case_id}`);
          },
          (e) => showError(e),
        ),
    });
  const open = (a: Appointment) =>
    simple.mutate({ id: a.id, action: 'open' }, { onSuccess: () => a.consultation_id && navigate(`/diagnosis/item/${a.consultation_id}`), onError: (e) => showError(e) });
  const buttons = (a: Appointment) =>
    (a.actions ?? []).map((act) => {
      const btn = (onClick: () => void, danger = false) => (
        <Button key={act} type="link" size="small" danger={danger} onClick={onClick} data-testid={`frozen-${act}-${a.id}`}>
          {t(`frozen.action.${act}`)}
        </Button>
      );
      switch (act) {
        case 'return':
          return btn(() => setReason({ a, kind: 'return' }), true);
        case 'recall':
          return btn(() => setReason({ a, kind: 'recall' }), true);
        case 'assign':
          return btn(() => setAssigning(a));
        case 'arrive':
          return btn(() => setArriving(a));
        case 'resubmit':
          return btn(() => setResubmitting(a));
        case 'open':
          return btn(() => open(a));
        case 'after_frozen_paraffin_block':
          return btn(() => registerParaffin(a));
        case 'concordance':
          return btn(() => setComparing(a));
        default:
          return btn(() => run(a, act as 'accept'));
      }
    });
  const dialogs = (
    <>
      <ReasonDialog target={reason?.a ?? null} kind={reason?.kind ?? 'return'} onClose={() => setReason(null)} />
      <AssignDialog target={assigning} onClose={() => setAssigning(null)} />
      <ArriveDialog target={arriving} onClose={() => setArriving(null)} />
      <BookDrawer open={!!resubmitting} returned={resubmitting} onClose={() => setResubmitting(null)} />
      <Modal open={!!comparing} title={t('frozen.comparison.title')} footer={null} onCancel={() => setComparing(null)} destroyOnHidden width={560}>
        {comparing && <FrozenComparison a={comparing} onDone={() => setComparing(null)} />}
      </Modal>
    </>
  );
  return { buttons, dialogs };
}

/** /frozen-case/apply: the site books frozen sections and follows them. */
export function FrozenApplyPage() {
  const { t } = useTranslation();
  const [booking, setBooking] = useState(false);
  const { buttons, dialogs } = useActionButtons();
  return (
    <PageContainer title={t('frozen.page.apply')} subtitle={t('frozen.page.applySubtitle')}>
      <AppointmentList
        tableId="frozen.apply"
        tabs={['all', 'applying', 'pending', 'returned', 'recall', 'recalled', 'failed']}
        show={['center', 'countdown', 'reason']}
        actions={buttons}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setBooking(true)} data-testid="frozen-book">
            {t('frozen.book')}
          </Button>
        }
      />
      <BookDrawer open={booking} onClose={() => setBooking(false)} />
      {dialogs}
    </PageContainer>
  );
}

/** /frozen-case/todo: today's and upcoming appointments; the tissue ready, the site turns one into a frozen case. */
export function FrozenTodoPage() {
  const { t } = useTranslation();
  const { buttons, dialogs } = useActionButtons();
  return (
    <PageContainer title={t('frozen.page.todo')} subtitle={t('frozen.page.todoSubtitle')}>
      <AppointmentList tableId="frozen.todo" tabs={['pending', 'reading', 'reported']} show={['center', 'countdown', 'expert', 'elapsed', 'turnaround', 'paraffin']} actions={buttons} />
      {dialogs}
    </PageContainer>
  );
}

const DISTRIBUTE = {
  manage: { tabs: ['applying', 'unassigned', 'ignored'], show: ['hospital', 'countdown', 'expert', 'elapsed'] },
  done: { tabs: ['done', 'reading', 'reported', 'failed'], show: ['hospital', 'expert', 'elapsed', 'turnaround', 'paraffin'] },
  recall: { tabs: ['recall', 'recalled'], show: ['hospital', 'reason'] },
  return: { tabs: ['returned'], show: ['hospital', 'reason'] },
} as const;

/** /frozen-distribute/manage|done|recall|return: the allocator confirms, assigns, answers recalls. */
export function FrozenDistributePage({ view }: { view: keyof typeof DISTRIBUTE }) {
  const { t } = useTranslation();
  const { buttons, dialogs } = useActionButtons();
  const cfg = DISTRIBUTE[view];
  return (
    <PageContainer title={t(`frozen.page.distribute.${view}`)} subtitle={t('frozen.page.distributeSubtitle')}>
      <AppointmentList key={view} tableId={`frozen.distribute.${view}`} tabs={[...cfg.tabs]} show={[...cfg.show]} actions={buttons} exportable={view === 'done'} />
      {dialogs}
    </PageContainer>
  );
}

/** /frozen-expert/manage: the expert's frozen cases with the clock running since the slides arrived. */
export function FrozenExpertPage() {
  const { t } = useTranslation();
  const { buttons, dialogs } = useActionButtons();
  return (
    <PageContainer title={t('frozen.page.expert')} subtitle={t('frozen.page.expertSubtitle')}>
      <AppointmentList tableId="frozen.expert" tabs={['reading', 'reported']} show={['hospital', 'elapsed', 'expert', 'turnaround', 'paraffin']} actions={buttons} />
      {dialogs}
    </PageContainer>
  );
}

/** /admin/appointment-manage: every appointment of the centers the administrator manages. */
export function AdminAppointmentPage() {
  const { t } = useTranslation();
  return (
    <PageContainer title={t('frozen.page.admin')} subtitle={t('frozen.page.adminSubtitle')}>
      <AppointmentList
        tableId="frozen.admin"
        tabs={['all', 'applying', 'pending', 'returned', 'recall', 'reading', 'reported', 'failed']}
        show={['hospital', 'center', 'expert', 'elapsed', 'turnaround', 'paraffin', 'reason']}
        exportable
      />
    </PageContainer>
  );
}
