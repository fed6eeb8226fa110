// The appointment list every frozen screen shows: the list engine with the
// screen's tabs, and columns by screen.
import { useMemo, useState, type ReactNode } from 'react';
import { Button, Space } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useSearchParams } from '../../lib/searchParams';
import { useTranslation } from 'react-i18next';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { useApiError } from '../../components/ui/useApiError';
import { formatDateTime } from '../../lib/format';
import { parseQuery, toApiQuery } from '../../lib/list/query';
import { countAppointments, exportAppointments, fetchAppointments, frozenKeys, type Appointment } from './api';
import { Countdown, Elapsed, PhaseTag } from './parts';
import { turnaroundMinutes } from './clock';
import { ConcordanceTag } from '../../entities/case/FrozenComparison';

export type Column = 'hospital' | 'center' | 'countdown' | 'elapsed' | 'expert' | 'turnaround' | 'reason' | 'paraffin';

export function AppointmentList({
  tableId,
  tabs,
  show,
  actions,
  exportable,
  toolbar,
}: {
  tableId: string;
  tabs: string[];
  show: Column[];
  actions?: (a: Appointment) => ReactNode;
  exportable?: boolean;
  toolbar?: ReactNode;
}) {
  const { t } = useTranslation();
  const showError = useApiError();
  const [sp] = useSearchParams();
  const [exporting, setExporting] = useState(false);
  const doExport = async () => {
    setExporting(true);
    try {
      const { page: _p, page_size: _s, ...q } = toApiQuery(parseQuery(sp));
      await exportAppointments(q, `${t('frozen.exportName')}-${new Date().toISOString().slice(0, 10)}.xlsx`);
    } catch (e) {
      showError(e);
    } finally {
      setExporting(false);
    }
  };
  const columns = useMemo<ListColumn<Appointment>[]>(() => {
    const cols: (ListColumn<Appointment> | false)[] = [
      { key: 'id', title: t('frozen.field.id'), width: 70, sortable: true },
      { key: 'patient_name', title: t('frozen.field.patient'), width: 150, filterable: true, render: (x: string, a) => <span>{x} <span className="tp-frozen-muted" style={{ color: '#595959' }}>{[a.gender && t(`frozen.gender.${a.gender}`), a.age].filter(Boolean).join(' · ')}</span></span> },
      show.includes('elapsed') && { key: 'arrived_at', title: t('frozen.field.elapsed'), width: 120, sortable: true, render: (x: string | null, a) => (x ? <Elapsed from={x} until={a.reported_at} thresholds={{ amberMin: a.frozen_amber_min, redMin: a.frozen_red_min }} /> : '—') },
      show.includes('turnaround') && { key: 'frozen_verdict', title: t('frozen.field.verdict'), width: 110, render: (x: string | null) => (x ? t(`diagnosis.frozenVerdict.${x}`) : '—') },
      show.includes('hospital') && { key: 'hospital_name', title: t('frozen.field.hospital'), width: 150 },
      show.includes('center') && { key: 'center_name', title: t('frozen.field.center'), width: 150 },
      { key: 'operation_at', title: t('frozen.field.operationAt'), width: 170, sortable: true, render: formatDateTime },
      show.includes('countdown') && { key: 'countdown', title: t('frozen.field.countdown'), width: 150, render: (_: unknown, a) => (a.arrived_at ? '—' : <Countdown at={a.operation_at} />) },
      { key: 'operating_room', title: t('frozen.field.room'), width: 90, filterable: true, defaultHidden: show.includes('turnaround') },
      { key: 'surgeon', title: t('frozen.field.surgeon'), width: 110, filterable: true, render: (x: string, a) => <span>{x} <span className="tp-frozen-muted" style={{ color: '#595959' }}>{a.phone}</span></span> },
      { key: 'specimen_site', title: t('frozen.field.specimenSite'), width: 140, filterable: true },
      { key: 'clinical_question', title: t('frozen.field.question'), width: 160, ellipsis: true, defaultHidden: show.length > 3 },
      { key: 'phase', title: t('frozen.field.status'), width: 170, render: (x: string, a) => <PhaseTag phase={x} ignored={a.is_ignored === 1} /> },
      show.includes('reason') && { key: 'return_reason', title: t('frozen.field.reason'), width: 160, render: (x: string, a) => x || a.recall_reason || '—' },
      show.includes('expert') && { key: 'expert_name', title: t('frozen.field.expert'), width: 130, render: (x: string | null) => x ?? t('frozen.unassigned') },
      show.includes('turnaround') && {
        key: 'turnaround_seconds',
        title: t('frozen.field.turnaround'),
        width: 120,
        render: (x: number | null) => {
          const m = turnaroundMinutes(x);
          return m == null ? '—' : <span style={{ color: m > 20 ? '#a8071a' : '#135200' }}>{t('frozen.minutes', { count: m })}</span>;
        },
      },
      show.includes('paraffin') && {
        key: 'paraffin_consult_no',
        title: t('frozen.field.paraffin'),
        width: 170,
        render: (x: string | null, a) => (x ? <Space size={4} wrap><span className="tp-mono">{x}</span><ConcordanceTag value={a.concordance} /></Space> : '—'),
      },
      !!actions && { key: 'actions', title: t('common.actions'), width: 230, fixed: 'right' as const, ellipsis: false, render: (_: unknown, a) => <Space size={0} wrap>{actions?.(a)}</Space> },
    ];
    return cols.filter(Boolean) as ListColumn<Appointment>[];
  }, [t, show, actions]);
  return (
    <DataList<Appointment>
      tableId={tableId}
      queryKey={frozenKeys.all}
      fetchList={fetchAppointments}
      fetchCount={countAppointments}
      tabs={tabs.map((k) => ({ key: k, label: t(`frozen.tab.${k}`) }))}
      columns={columns}
      defaultSort={{ operation_at: 'asc' }}
      searchPlaceholder={t('frozen.searchPlaceholder')}
      emptyText={t('frozen.empty')}
      toolbar={
        <Space>
          {toolbar}
          {exportable && (
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="frozen-export">
              {t('frozen.export')}
            </Button>
          )}
        </Space>
      }
    />
  );
}
