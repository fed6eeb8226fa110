// Case lists of the diagnosis screens: the shared list engine with the
// expert's columns; a row opens the workspace.
import { useCallback, useMemo, type ReactNode } from 'react';
import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { CountQuery, ListColumn, SearchField } from '../../components/ui/list/types';
import { withParams, type ApiListQuery } from '../../lib/list/query';
import { formatDateTime } from '../../lib/format';
import { useHospitalOptions } from '../../entities/org/options';
import { caseKeys, countCases, fetchCases, type CaseRow } from '../../entities/case/api';
import { CaseStatusTag, TimingTag } from '../../entities/case/tags';
import { ageText } from '../../entities/case/age';

const formatMinute = (x: string) => formatDateTime(x).slice(0, 16);

export function useDiagnosisSearchFields(): SearchField[] {
  const { t } = useTranslation();
  const hospitals = useHospitalOptions();
  return [
    { name: 'pathology_number', label: t('case.field.pathologyNumber'), type: 'text' },
    { name: 'patient_name', label: t('case.field.name'), type: 'text' },
    { name: 'consult_no', label: t('case.field.consultNo'), type: 'text' },
    { name: 'hospital_id', label: t('case.field.hospital'), type: 'select', multiple: true, options: hospitals.data ?? [] },
    { name: 'submitted_at', label: t('case.field.submittedAt'), type: 'dateRange' },
    { name: 'inspection_date', label: t('case.field.inspectionDate'), type: 'dateRange' },
  ];
}

export function useDiagnosisColumns(opts: { extra?: ListColumn<CaseRow>[]; actionLabel?: string; onOpen: (r: CaseRow) => void }): ListColumn<CaseRow>[] {
  const { t } = useTranslation();
  return useMemo(
    () => [
      {
        key: 'consult_no',
        title: t('case.field.consultNo'),
        width: 170,
        sortable: true,
        render: (x: string, r: CaseRow) => (
          <Button type="link" size="small" style={{ padding: 0 }} className="tp-mono" onClick={() => opts.onOpen(r)}>
            {x}
          </Button>
        ),
      },
      { key: 'pathology_number', title: t('case.field.pathologyNumber'), width: 140, sortable: true, filterable: true, render: (x: string) => <span className="tp-mono">{x || '—'}</span> },
      {
        key: 'patient_name',
        title: t('case.field.name'),
        width: 130,
        ellipsis: true,
        filterable: true,
        render: (x: string, r: CaseRow) => (
          <Space size={4}>
            <span>{x}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.gender ? t(`case.gender.${r.gender}`) : ''} {ageText(t, r.age, r.age_unit)}
            </Typography.Text>
          </Space>
        ),
      },
      {
        key: 'status',
        title: t('case.field.status'),
        width: 150,
        render: (_: unknown, r: CaseRow) => (
          <Space size={4} wrap>
            <CaseStatusTag label={r.status_label} />
            <TimingTag timing={r.timing} timeoutAt={r.timeout_at} />
          </Space>
        ),
      },
      { key: 'hospital_name', title: t('case.field.hospital'), width: 140, ellipsis: { showTitle: true }, filterable: true },
      { key: 'slide_count', title: t('case.field.slideCount'), width: 64, align: 'right' as const },
      // Minutes are enough in a worklist (the workspace shows seconds); keeps the columns within 1440 px.
      { key: 'submitted_at', title: t('case.field.submittedAt'), width: 140, sortable: true, render: (x: string) => formatMinute(x) },
      { key: 'timeout_at', title: t('case.field.timeoutAt'), width: 140, sortable: true, render: (x: string) => formatMinute(x) },
      ...(opts.extra ?? []),
      {
        key: 'actions',
        title: t('common.actions'),
        width: 90,
        fixed: 'right' as const,
        render: (_: unknown, r: CaseRow) => (
          <Button type="link" size="small" onClick={() => opts.onOpen(r)} data-testid={`open-${r.id}`}>
            {opts.actionLabel ?? t('diagnosis.open')}
          </Button>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, opts.extra, opts.actionLabel],
  );
}

interface Props {
  tableId: string;
  title: string;
  subtitle?: string;
  tabs?: string[];
  /** Labels replacing the usual ones of some tabs. */
  tabLabels?: Record<string, string>;
  fixedTab?: string;
  extraColumns?: ListColumn<CaseRow>[];
  toolbar?: ReactNode;
  emptyText?: string;
  onOpen?: (r: CaseRow) => void;
  actionLabel?: string;
}

export function DiagnosisCaseList({ tableId, title, subtitle, tabs, tabLabels, fixedTab, extraColumns, toolbar, emptyText, onOpen, actionLabel }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const open = onOpen ?? ((r: CaseRow) => navigate(`/diagnosis/item/${r.id}`));
  const fetchList = useCallback((q: ApiListQuery) => fetchCases(fixedTab ? withParams(q, { tab: fixedTab }) : q), [fixedTab]);
  const fetchCount = useCallback((q: CountQuery) => countCases(fixedTab ? withParams(q, { tab: fixedTab }) : q), [fixedTab]);
  const columns = useDiagnosisColumns({ extra: extraColumns, onOpen: open, actionLabel });
  const searchFields = useDiagnosisSearchFields();
  return (
    <PageContainer title={title} subtitle={subtitle}>
      <DataList<CaseRow>
        tableId={tableId}
        queryKey={caseKeys.list(tableId)}
        fetchList={fetchList}
        fetchCount={tabs ? fetchCount : undefined}
        columns={columns}
        defaultSort={{ submitted_at: 'desc' }}
        tabs={tabs?.map((k) => ({ key: k, label: tabLabels?.[k] ?? t(`case.tab.${k}`) }))}
        searchFields={searchFields}
        searchPlaceholder={t('case.listSearchPlaceholder')}
        toolbar={toolbar}
        emptyText={emptyText ?? t('case.empty')}
        tableProps={{ onRow: (r) => ({ onDoubleClick: () => open(r) }) }}
      />
    </PageContainer>
  );
}
