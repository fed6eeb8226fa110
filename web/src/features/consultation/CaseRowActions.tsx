import { Button, Dropdown, Space } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CaseRow } from '../../entities/case/api';
import type { ActionName, CaseRef } from './useCaseActions';
import { ChargeStatus } from '../../entities/case/codes';

/** Which server transition allows each button (view is always there). */
const NEEDS: Partial<Record<ActionName, string>> = {
  edit: 'update',
  delete: 'delete',
  submit: 'submit',
  charge: 'update',
  consult_again: 'consult_again',
  recall: 'recall',
  recall_agree: 'recall_agree',
  recall_reject: 'recall_reject',
  recall_ignore: 'recall_ignore',
  bind_expert: 'bind_expert',
  bind_staff: 'bind_staff',
  referral: 'referral',
  return_to_site: 'return_to_site',
};

export const ACTION_LABEL: Record<ActionName, string> = {
  view: 'case.action.view',
  edit: 'case.action.edit',
  delete: 'case.action.delete',
  submit: 'case.action.submit',
  charge: 'case.action.charge',
  charge_submit: 'case.action.chargeSubmit',
  refund: 'case.action.refund',
  consult_again: 'case.action.consultAgain',
  recall: 'case.action.recall',
  recall_agree: 'case.action.recallAgree',
  recall_reject: 'case.action.recallReject',
  recall_ignore: 'case.action.recallIgnore',
  bind_expert: 'case.action.bindExpert',
  bind_staff: 'case.action.bindStaff',
  referral: 'case.action.referral',
  return_to_site: 'case.action.returnToSite',
  batch_submit: 'case.action.batchSubmit',
  batch_recall: 'case.action.batchRecall',
  batch_bind_expert: 'case.action.batchBind',
  batch_recall_agree: 'case.action.batchAgree',
};

const DANGER = new Set<ActionName>(['delete', 'recall_reject', 'return_to_site']);

/** The actions of `offered` that the server says the caller may take on the row now. */
export function allowedFor(row: CaseRow, offered: ActionName[]): ActionName[] {
  const can = new Set<string>(row.actions ?? []);
  return offered.filter((a) => {
    if (a === 'view') return true;
    // Charging goes with sending: a clinician, who does not send, does not charge.
    const sends = can.has('submit') || can.has('consult_again');
    if (a === 'charge') return can.has('update') && sends && row.charge_status === ChargeStatus.None;
    if (a === 'refund') return can.has('update') && sends && row.charge_status === ChargeStatus.Charged;
    const need = NEEDS[a];
    return need ? can.has(need) : false;
  });
}

export const toRef = (r: CaseRow): CaseRef => ({ id: r.id, consult_no: r.consult_no, patient_name: r.patient_name, center_id: r.center_id, library_id: r.library_id, expert_id: r.expert_id, charge_status: r.charge_status });

/** Row buttons: the first `inline` allowed actions as links, the rest in a "more" menu. */
export function CaseRowActions({ row, offered, inline = 3, onAction }: { row: CaseRow; offered: ActionName[]; inline?: number; onAction: (a: ActionName, r: CaseRow) => void }) {
  const { t } = useTranslation();
  const allowed = allowedFor(row, offered);
  const shown = allowed.slice(0, allowed.length > inline + 1 ? inline : inline + 1);
  const rest = allowed.slice(shown.length);
  return (
    <Space size={0} data-testid={`case-actions-${row.id}`}>
      {shown.map((a) => (
        <Button key={a} type="link" size="small" danger={DANGER.has(a)} onClick={() => onAction(a, row)} data-testid={`case-${a}-${row.id}`}>
          {t(ACTION_LABEL[a])}
        </Button>
      ))}
      {rest.length > 0 && (
        <Dropdown menu={{ items: rest.map((a) => ({ key: a, label: t(ACTION_LABEL[a]), danger: DANGER.has(a) })), onClick: ({ key }) => onAction(key as ActionName, row) }}>
          <Button type="link" size="small" icon={<DownOutlined />} iconPosition="end">
            {t('case.action.more')}
          </Button>
        </Dropdown>
      )}
    </Space>
  );
}
