import { useState } from 'react';
import { App, Button, Form, Modal, Select, Space, Tag, Typography } from 'antd';
import { DollarOutlined, FileExcelOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from '../../lib/searchParams';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { formatDateTime } from '../../lib/format';
import { parseQuery, toApiQuery } from '../../lib/list/query';
import { useApiError } from '../../components/ui/useApiError';
import { caseKeys, fetchCases, type CaseRow } from '../../entities/case/api';
import { fetchCharges, type ChargeRow } from './api';
import { useCaseActions } from './useCaseActions';
import { toRef } from './CaseRowActions';
import { LazyCaseDetailDrawer } from './LazyCaseDetailDrawer';
import { exportCharges } from './transfer';
import { yuan } from './dialogs';
import { useDebounced } from '../../components/ui/list/useDebounced';
import { ChargeStatus } from '../../entities/case/codes';

/** Pick a registered, not yet charged case to charge. */
function PickCaseModal({ open, onCancel, onPick }: { open: boolean; onCancel: () => void; onPick: (r: CaseRow) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<number | null>(null);
  const q = useDebounced(search, 250);
  const cases = useQuery({
    queryKey: ['consultation', 'uncharged', q],
    queryFn: () => fetchCases({ page: 1, page_size: 50, search: q || undefined, params: JSON.stringify({ tab: 'unsubmitted', charge_status: ChargeStatus.None }), sort_by: JSON.stringify({ created_at: 'desc' }) }),
    enabled: open,
  });
  const rows = cases.data?.rows ?? [];
  return (
    <Modal
      open={open}
      title={t('case.charge.pickTitle')}
      onCancel={onCancel}
      okText={t('case.charge.next')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !picked }}
      onOk={() => {
        const r = rows.find((x) => x.id === picked);
        if (r) onPick(r);
      }}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('case.charge.pickLabel')} extra={t('case.charge.pickHint')}>
          <Select
            showSearch
            autoFocus
            filterOption={false}
            onSearch={setSearch}
            value={picked ?? undefined}
            onChange={setPicked}
            loading={cases.isFetching}
            placeholder={t('case.searchPlaceholder')}
            notFoundContent={t('case.charge.noUncharged')}
            options={rows.map((r) => ({ value: r.id, label: `${r.pathology_number || '—'} · ${r.patient_name || '—'}${r.consult_no ? ` · ${r.consult_no}` : ''}` }))}
            data-testid="charge-pick"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Site: charges of the hospital's cases, refunds and the Excel export. */
export default function ChargePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [sp] = useSearchParams();
  const [openId, setOpenId] = useState<number | null>(null);
  const [picking, setPicking] = useState(false);
  const [exporting, setExporting] = useState(false);
  const { run, holder } = useCaseActions({ onView: (c) => setOpenId(c.id) });
  // Only charged cases not yet submitted can be refunded: the ids of those.
  const refundable = useQuery({
    queryKey: ['consultation', 'refundable'],
    queryFn: async () => new Set((await fetchCases({ page: 1, page_size: 10000, params: JSON.stringify({ tab: 'unsubmitted', charge_status: ChargeStatus.Charged }) })).rows.map((r) => r.id)),
  });

  const doExport = async () => {
    setExporting(true);
    try {
      const { page: _p, page_size: _s, ...q } = toApiQuery(parseQuery(sp));
      await exportCharges(q, `${t('case.charge.fileName')}-${new Date().toISOString().slice(0, 10)}.xlsx`);
      void message.success(t('case.charge.exported'));
    } catch (e) {
      showError(e);
    } finally {
      setExporting(false);
    }
  };

  const columns: ListColumn<ChargeRow>[] = [
    { key: 'order_no', title: t('case.charge.orderNo'), width: 190, sortable: true, filterable: true, render: (v: string) => <span className="tp-mono">{v || '—'}</span> },
    { key: 'consult_no', title: t('case.field.consultNo'), width: 180, filterable: true, render: (v: string, r) => <Typography.Link className="tp-mono" onClick={() => setOpenId(r.consult_id)}>{v || t('case.noNumberYet')}</Typography.Link> },
    { key: 'pathology_number', title: t('case.field.pathologyNumber'), width: 140, filterable: true, render: (v: string) => <span className="tp-mono">{v}</span> },
    { key: 'patient_name', title: t('case.field.name'), width: 110, filterable: true },
    { key: 'hospital_name', title: t('case.field.hospital'), width: 170, defaultHidden: true },
    { key: 'items', title: t('case.charge.items'), width: 210 },
    { key: 'total_fen', title: t('case.charge.amount'), width: 120, sortable: true, align: 'right', render: (v: number) => <Typography.Text strong>{yuan(v / 100)}</Typography.Text> },
    { key: 'status', title: t('case.field.chargeStatus'), width: 100, filterable: true, render: (v: number) => (v === 3 ? <Tag bordered={false}>{t('case.chargeStatus.3')}</Tag> : <Tag color="success" bordered={false}>{t('case.chargeStatus.2')}</Tag>) },
    { key: 'charged_at', title: t('case.charge.chargedAt'), width: 170, sortable: true, render: formatDateTime },
    { key: 'refunded_at', title: t('case.charge.refundedAt'), width: 170, render: formatDateTime, defaultHidden: true },
    {
      key: 'actions',
      title: t('common.actions'),
      width: 150,
      fixed: 'right',
      ellipsis: false,
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setOpenId(r.consult_id)}>
            {t('case.action.view')}
          </Button>
          {r.status === 2 && refundable.data?.has(r.consult_id) && (
            <Button type="link" size="small" danger onClick={() => run('refund', [{ id: r.consult_id, consult_no: r.consult_no || r.pathology_number }])} data-testid={`charge-refund-${r.id}`}>
              {t('case.action.refund')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title={t('case.charge.pageTitle')} subtitle={t('case.charge.subtitle')}>
      <DataList<ChargeRow>
        tableId="case.charge"
        queryKey={caseKeys.charges}
        fetchList={fetchCharges}
        columns={columns}
        defaultSort={{ charged_at: 'desc' }}
        searchFields={[
          { name: 'pathology_number', label: t('case.field.pathologyNumber'), type: 'text' },
          { name: 'patient_name', label: t('case.field.name'), type: 'text' },
          { name: 'status', label: t('case.field.chargeStatus'), type: 'select', options: [2, 3].map((s) => ({ value: s, label: t(`case.chargeStatus.${s}`) })) },
          { name: 'charged_at', label: t('case.charge.chargedAt'), type: 'dateRange' },
        ]}
        searchPlaceholder={t('case.charge.searchPlaceholder')}
        toolbar={
          <>
            <Button type="primary" icon={<DollarOutlined />} onClick={() => setPicking(true)} data-testid="charge-new">
              {t('case.charge.new')}
            </Button>
            <Button icon={<FileExcelOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="charge-export">
              {exporting ? t('case.charge.exporting') : t('case.charge.export')}
            </Button>
          </>
        }
        emptyText={t('case.charge.empty')}
      />
      <PickCaseModal
        open={picking}
        onCancel={() => setPicking(false)}
        onPick={(r) => {
          setPicking(false);
          run('charge', [toRef(r)]);
        }}
      />
      <LazyCaseDetailDrawer id={openId} onClose={() => setOpenId(null)} onAction={(a, c) => run(a, [c], { onDone: () => setOpenId(null) })} />
      {holder}
    </PageContainer>
  );
}
