import type { ReactNode } from 'react';
import { Space, Tooltip, Typography } from 'antd';
import { ThunderboltFilled, EyeInvisibleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from '../../components/ui/list/types';
import { formatDateTime } from '../../lib/format';
import type { CaseRow } from '../../entities/case/api';
import { CaseStatusTag, ChargeTag, TimingTag } from '../../entities/case/tags';
import { ageText } from '../../entities/case/age';

export type CaseColumnKey =
  | 'consult_no'
  | 'pathology_number'
  | 'patient_name'
  | 'gender'
  | 'age'
  | 'hospital_name'
  | 'center_name'
  | 'expert_name'
  | 'library_name'
  | 'status'
  | 'timing'
  | 'charge_status'
  | 'slide_count'
  | 'inspection_date'
  | 'created_at'
  | 'submitted_at'
  | 'assigned_at'
  | 'timeout_at'
  | 'recall_reason'
  | 'return_reason';

const dateOnly = (v: string | null | undefined) => (v ? formatDateTime(v).slice(0, 10) : '—');

/** The case list columns, in the order given; `hidden` are available in the column settings only. */
export function useCaseColumns(keys: CaseColumnKey[], opts: { hidden?: CaseColumnKey[]; onOpen: (r: CaseRow) => void; actions?: (r: CaseRow) => ReactNode; actionsWidth?: number }): ListColumn<CaseRow>[] {
  const { t } = useTranslation();
  const all: Record<CaseColumnKey, ListColumn<CaseRow>> = {
    consult_no: {
      key: 'consult_no',
      title: t('case.field.consultNo'),
      width: 175,
      sortable: true,
      filterable: true,
      fixed: 'left',
      render: (v: string, r) => (
        <Space size={4}>
          {r.expedite === 1 && (
            <Tooltip title={t('case.expedite')}>
              <ThunderboltFilled style={{ color: '#d4380d' }} aria-label={t('case.expedite')} />
            </Tooltip>
          )}
          <Typography.Link onClick={() => opts.onOpen(r)} data-testid={`case-open-${r.id}`} className="tp-mono">
            {v || t('case.noNumberYet')}
          </Typography.Link>
        </Space>
      ),
    },
    pathology_number: { key: 'pathology_number', title: t('case.field.pathologyNumber'), width: 150, sortable: true, filterable: true, render: (v: string) => <span className="tp-mono">{v || '—'}</span> },
    patient_name: { key: 'patient_name', title: t('case.field.name'), width: 140, sortable: true, filterable: true, render: (v: string) => v || '—' },
    gender: { key: 'gender', title: t('case.field.gender'), width: 84, filterable: true, render: (v: string) => (v ? t(`case.gender.${v}`) : '—') },
    age: { key: 'age', title: t('case.field.age'), width: 80, sortable: true, render: (v: number | null, r) => ageText(t, v, r.age_unit) },
    hospital_name: { key: 'hospital_name', title: t('case.field.hospital'), width: 180 },
    center_name: { key: 'center_name', title: t('case.field.center'), width: 160, render: (v: string | null) => v || '—' },
    expert_name: { key: 'expert_name', title: t('case.field.expert'), width: 130, render: (v: string | null) => v || <Typography.Text type="secondary">{t('case.unassigned')}</Typography.Text> },
    library_name: { key: 'library_name', title: t('case.field.library'), width: 130, render: (v: string | null) => v || '—' },
    status: {
      key: 'status',
      dataIndex: 'status_label',
      title: t('case.field.status'),
      width: 185,
      sortable: true,
      filterable: true,
      ellipsis: false,
      render: (_: unknown, r) => (
        <Space size={4} wrap>
          <CaseStatusTag label={r.status_label} />
          <TimingTag timing={r.timing} timeoutAt={r.timeout_at} />
        </Space>
      ),
    },
    timing: { key: 'timeout_at', title: t('case.field.timeoutAt'), width: 170, sortable: true, render: (v: string | null) => formatDateTime(v) },
    charge_status: { key: 'charge_status', title: t('case.field.chargeStatus'), width: 100, filterable: true, render: (v: number) => <ChargeTag status={v} /> },
    slide_count: { key: 'slide_count', title: t('case.field.slideCount'), width: 90, sortable: true, align: 'right' },
    inspection_date: { key: 'inspection_date', title: t('case.field.inspectionDate'), width: 120, sortable: true, filterable: true, render: dateOnly },
    created_at: { key: 'created_at', title: t('case.field.createdAt'), width: 170, sortable: true, filterable: true, render: formatDateTime },
    submitted_at: { key: 'submitted_at', title: t('case.field.submittedAt'), width: 170, sortable: true, render: formatDateTime },
    assigned_at: { key: 'assigned_at', title: t('case.field.assignedAt'), width: 170, sortable: true, render: formatDateTime },
    timeout_at: { key: 'timeout_at', title: t('case.field.timeoutAt'), width: 170, sortable: true, render: formatDateTime },
    recall_reason: { key: 'recall_reason', title: t('case.field.recallReason'), width: 220, render: (v: string) => (v ? <Tooltip title={v}>{v}</Tooltip> : '—') },
    return_reason: { key: 'return_reason', title: t('case.field.returnReason'), width: 220, render: (v: string) => (v ? <Tooltip title={v}>{v}</Tooltip> : '—') },
  };
  const cols = keys.map((k) => all[k]);
  for (const k of opts.hidden ?? []) cols.push({ ...all[k], defaultHidden: true });
  if (opts.actions) {
    const render = opts.actions;
    cols.push({ key: 'actions', title: t('common.actions'), width: opts.actionsWidth ?? 220, fixed: 'right', ellipsis: false, render: (_: unknown, r) => render(r) });
  }
  return cols;
}

export function PrivacyMark() {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('case.secret')}>
      <EyeInvisibleOutlined />
    </Tooltip>
  );
}
