// /case/report — released reports of the site (and of the publisher): print,
// then deliver. Tabs: to print, to send, sent.
import { useCallback, useMemo, useState } from 'react';
import { App, Button, Drawer, Space, Spin } from 'antd';
import { DownloadOutlined, PrinterOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { CountQuery, ListColumn } from '../../components/ui/list/types';
import type { ApiListQuery } from '../../lib/list/query';
import { formatDateTime } from '../../lib/format';
import { useApiError } from '../../components/ui/useApiError';
import { caseKeys, countCases, fetchCases, type CaseRow } from '../../entities/case/api';
import { previewReport, reportFilename, useReportActions, useVersions } from './api';
import { useDiagnosisSearchFields } from './CaseList';
import { VersionList } from './DiagnosisForm';
import { PublisherButtons } from './PublisherButtons';
import { useAuthInfo } from '../../lib/appData';
import { hasRole } from '../../lib/access';

function ReportDrawer({ row, onClose }: { row: CaseRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const versions = useVersions(row?.id ?? 0);
  return (
    <Drawer open={!!row} onClose={onClose} width={640} title={row ? `${row.patient_name} · ${row.consult_no}` : ''} destroyOnHidden>
      {versions.isLoading ? <Spin /> : versions.data?.length ? <VersionList versions={versions.data} consultNo={row?.consult_no ?? ''} /> : t('diagnosis.report.none')}
    </Drawer>
  );
}

export default function CaseReportPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const { print, deliver } = useReportActions();
  const [viewing, setViewing] = useState<CaseRow | null>(null);
  const searchFields = useDiagnosisSearchFields();
  const fetchList = useCallback((q: ApiListQuery) => fetchCases(q), []);
  const fetchCount = useCallback((q: CountQuery) => countCases(q), []);
  // The publisher first sees the reports waiting in their hesitation period.
  const info = useAuthInfo();
  const isPublisher = hasRole((info.data?.roles ?? []).map((r) => r.role), 'publisher');
  const tabKeys = isPublisher ? ['releasing', 'to_print', 'to_send', 'sent'] : ['to_print', 'to_send', 'sent'];

  // Printing opens the PDF (the browser prints it) and marks the report printed.
  const doPrint = (r: CaseRow) => {
    previewReport(r.id).catch((e) => showError(e));
    return print.mutateAsync(r.id).then(() => void message.success(t('diagnosis.report.printed')), (e) => showError(e));
  };
  const doDeliver = (r: CaseRow) => deliver.mutateAsync(r.id).then(() => void message.success(t('diagnosis.report.delivered')), (e) => showError(e));

  const columns = useMemo<ListColumn<CaseRow>[]>(
    () => [
      { key: 'consult_no', title: t('case.field.consultNo'), width: 170, sortable: true, render: (x: string) => <span className="tp-mono">{x}</span> },
      { key: 'pathology_number', title: t('case.field.pathologyNumber'), width: 140, sortable: true, render: (x: string) => <span className="tp-mono">{x || '—'}</span> },
      { key: 'patient_name', title: t('case.field.name'), width: 120 },
      { key: 'hospital_name', title: t('case.field.hospital'), width: 180 },
      { key: 'expert_name', title: t('case.field.expert'), width: 120, render: (x: string) => x || '—' },
      { key: 'release_at', title: t('diagnosis.field.releaseAt'), width: 170, render: (x: string) => formatDateTime(x) },
      {
        key: 'print_deliver_status',
        title: t('case.field.status'),
        width: 100,
        render: (x: number, r: CaseRow) =>
          r.status_label?.key === 'releasing' ? t('expertActions.publisher.releasing') : t(`diagnosis.report.state.${x === 3 ? 'sent' : x === 2 ? 'to_send' : 'to_print'}`),
      },
      {
        key: 'actions',
        title: t('common.actions'),
        width: isPublisher ? 440 : 280,
        fixed: 'right' as const,
        render: (_: unknown, r: CaseRow) => (
          <Space size={0}>
            <PublisherButtons row={r} />
            <Button type="link" size="small" onClick={() => setViewing(r)} data-testid={`view-${r.id}`}>
              {t('diagnosis.report.view')}
            </Button>
            <Button type="link" size="small" icon={<DownloadOutlined />} onClick={() => previewReport(r.id, undefined, reportFilename(r.consult_no)).catch((e) => showError(e))} data-testid={`pdf-${r.id}`}>
              PDF
            </Button>
            {r.status_label?.key !== 'releasing' && (
              <Button type="link" size="small" icon={<PrinterOutlined />} onClick={() => doPrint(r)} data-testid={`print-${r.id}`}>
                {t('diagnosis.report.print')}
              </Button>
            )}
            {r.print_deliver_status === 2 && (
              <Button type="link" size="small" icon={<SendOutlined />} onClick={() => doDeliver(r)} data-testid={`deliver-${r.id}`}>
                {t('diagnosis.report.deliver')}
              </Button>
            )}
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, isPublisher],
  );

  return (
    <PageContainer title={t('diagnosis.report.title')} subtitle={t('diagnosis.report.subtitle')}>
      <DataList<CaseRow>
        tableId="case.report"
        queryKey={caseKeys.list('case.report')}
        fetchList={fetchList}
        fetchCount={fetchCount}
        columns={columns}
        defaultSort={{ submitted_at: 'desc' }}
        tabs={tabKeys.map((k) => ({ key: k, label: k === 'releasing' ? t('expertActions.publisher.releasing') : t(`diagnosis.report.state.${k}`) }))}
        searchFields={searchFields}
        searchPlaceholder={t('case.searchPlaceholder')}
        emptyText={t('diagnosis.report.empty')}
      />
      <ReportDrawer row={viewing} onClose={() => setViewing(null)} />
    </PageContainer>
  );
}
