// /borrow/manage — loans of a case's glass slides and blocks (spec 2 §3
// Borrow, §4 Borrow states, §9 borrow types) and, for the center, the
// archive (spec 2 §3 Archive, §4 Archive states). A site asks to borrow and
// follows its hospital's loans; the center approves, lends, takes back,
// prints the slip and keeps the archive.
import { useState } from 'react';
import { Button, Segmented, Space, Tag, Typography } from 'antd';
import { ContainerOutlined, PlusOutlined, PrinterOutlined, SwapOutlined } from '@ant-design/icons';
import { useSearchParams } from '../../lib/searchParams';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { useApiError } from '../../components/ui/useApiError';
import { useAuthInfo } from '../../lib/appData';
import { hasRole } from '../../lib/access';
import { formatDateTime } from '../../lib/format';
import {
  ARCHIVE_TABS, BORROW_TYPES, LOAN_TABS, borrowKeys, countArchives, countLoans, fetchArchives, fetchLoans, openSlip,
  type ArchiveAction, type ArchiveRow, type Loan, type LoanAction,
} from './api';
import { ARCHIVE_COLOR, ArchiveActionDialog, LoanActionDialog, LoanDrawer, LoanStatusTag, RequestDrawer } from './dialogs';
import './borrow.css';

const LOAN_ACTIONS: LoanAction[] = ['approve', 'reject', 'lend', 'return', 'extend'];
const ARCHIVE_ACTIONS: ArchiveAction[] = ['receive', 'store', 'undo', 'rearchive'];

function Loans() {
  const { t } = useTranslation();
  const showError = useApiError();
  const [requesting, setRequesting] = useState(false);
  const [viewing, setViewing] = useState<Loan | null>(null);
  const [acting, setActing] = useState<{ loan: Loan; action: LoanAction } | null>(null);
  const columns: ListColumn<Loan>[] = [
    { key: 'borrow_no', title: t('borrow.field.number'), width: 160, sortable: true, filterable: true, render: (v: string, r) => <a onClick={() => setViewing(r)}>{v}</a> },
    { key: 'status', title: t('borrow.field.status'), width: 150, render: (_: string, r) => <LoanStatusTag loan={r} /> },
    { key: 'consult_no', title: t('borrow.field.case'), width: 150, sortable: true, filterable: true },
    { key: 'patient_name', title: t('borrow.field.patient'), width: 100, sortable: true },
    { key: 'hospital_name', title: t('borrow.field.hospital'), width: 150, sortable: true },
    { key: 'type', title: t('borrow.field.type'), width: 110, render: (v: string) => <Tag>{t(`borrow.type.${v}`)}</Tag> },
    { key: 'borrower', title: t('borrow.field.borrower'), width: 130, sortable: true, filterable: true },
    { key: 'material', title: t('borrow.field.material'), width: 150, render: (_: unknown, r) => t('borrow.material', { slides: r.slides, blocks: r.blocks }) },
    {
      key: 'due_date', title: t('borrow.field.due'), width: 120, sortable: true,
      render: (v: string, r) => <span className={r.overdue ? 'tp-borrow-overdue-date' : undefined}>{v}</span>,
    },
    { key: 'created_at', title: t('borrow.field.requestedAt'), width: 160, sortable: true, render: formatDateTime },
    {
      key: 'actions', title: t('common.actions'), width: 220, fixed: 'right', ellipsis: false,
      render: (_: unknown, r) => (
        <Space size={0} wrap>
          {LOAN_ACTIONS.filter((a) => r.actions?.includes(a)).map((a) => (
            <Button key={a} type="link" size="small" danger={a === 'reject'} onClick={() => setActing({ loan: r, action: a })} data-testid={`borrow-${a}-${r.id}`}>
              {t(`borrow.action.${a}`)}
            </Button>
          ))}
          {r.actions?.includes('slip') && (
            <Button type="link" size="small" icon={<PrinterOutlined />} onClick={() => openSlip(r.id).catch(showError)} data-testid={`borrow-slip-${r.id}`}>
              {t('borrow.action.slip')}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <DataList<Loan>
        tableId="borrow.loans"
        queryKey={borrowKeys.all}
        fetchList={fetchLoans}
        fetchCount={countLoans}
        columns={columns}
        tabs={LOAN_TABS.map((k) => ({ key: k, label: k === 'all' ? t('common.tabs.all') : k === 'overdue' ? t('borrow.overdue') : t(`borrow.status.${k}`) }))}
        searchPlaceholder={t('borrow.searchPlaceholder')}
        searchFields={[
          { name: 'borrower', label: t('borrow.field.borrower'), type: 'text' },
          { name: 'type', label: t('borrow.field.type'), type: 'select', options: BORROW_TYPES.map((x) => ({ value: x, label: t(`borrow.type.${x}`) })) },
          { name: 'created_at', label: t('borrow.field.requestedAt'), type: 'dateRange' },
        ]}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setRequesting(true)} data-testid="borrow-new">
            {t('borrow.request')}
          </Button>
        }
        emptyText={t('borrow.empty')}
        tableProps={{ rowClassName: (r) => (r.overdue ? 'tp-borrow-overdue' : '') }}
      />
      <RequestDrawer open={requesting} onClose={() => setRequesting(false)} />
      <LoanDrawer loan={viewing} onClose={() => setViewing(null)} />
      <LoanActionDialog target={acting} onClose={() => setActing(null)} />
    </>
  );
}

function Archive() {
  const { t } = useTranslation();
  const [acting, setActing] = useState<{ row: ArchiveRow; action: ArchiveAction } | null>(null);
  const columns: ListColumn<ArchiveRow>[] = [
    { key: 'consult_no', title: t('borrow.field.case'), width: 150, sortable: true, filterable: true },
    { key: 'patient_name', title: t('borrow.field.patient'), width: 100, sortable: true },
    { key: 'hospital_name', title: t('borrow.field.hospital'), width: 150, sortable: true },
    { key: 'slide_count', title: t('borrow.field.slides'), width: 80, align: 'right' },
    {
      key: 'status', title: t('borrow.field.archiveStatus'), width: 150,
      render: (v: string, r) => (
        <Space size={4}>
          <Tag className="tp-borrow-tag" color={ARCHIVE_COLOR[v]} data-testid="archive-status">{t(`borrow.archive.${v}`)}</Tag>
          {r.on_loan && <Tag className="tp-borrow-tag" color="orange">{t('borrow.onLoan')}</Tag>}
        </Space>
      ),
    },
    { key: 'archive_no', title: t('borrow.field.archiveNo'), width: 150, sortable: true, filterable: true },
    {
      key: 'location', title: t('borrow.field.location'), width: 220,
      render: (_: unknown, r) => [r.room, r.box_no, r.locker_no].filter(Boolean).join(' / ') || '—',
    },
    { key: 'received_at', title: t('borrow.field.receivedAt'), width: 160, sortable: true, render: (v: string | null) => (v ? formatDateTime(v) : '—') },
    { key: 'stored_at', title: t('borrow.field.storedAt'), width: 160, sortable: true, render: (v: string | null) => (v ? formatDateTime(v) : '—') },
    { key: 'note', title: t('borrow.field.undoReason'), width: 150, defaultHidden: true },
    {
      key: 'actions', title: t('common.actions'), width: 160, fixed: 'right', ellipsis: false,
      render: (_: unknown, r) => (
        <Space size={0}>
          {ARCHIVE_ACTIONS.filter((a) => r.actions?.includes(a)).map((a) => (
            <Button key={a} type="link" size="small" danger={a === 'undo'} onClick={() => setActing({ row: r, action: a })} data-testid={`archive-${a}-${r.consult_id}`}>
              {t(`borrow.action.${a}`)}
            </Button>
          ))}
        </Space>
      ),
    },
  ];
  return (
    <>
      <DataList<ArchiveRow>
        tableId="borrow.archive"
        rowKey="consult_id"
        queryKey={borrowKeys.archive}
        fetchList={fetchArchives}
        fetchCount={countArchives}
        columns={columns}
        tabs={ARCHIVE_TABS.map((k) => ({ key: k, label: k === 'all' ? t('common.tabs.all') : t(`borrow.archive.${k}`) }))}
        searchPlaceholder={t('borrow.archiveSearchPlaceholder')}
        searchFields={[
          { name: 'room', label: t('borrow.field.room'), type: 'text' },
          { name: 'locker_no', label: t('borrow.field.locker'), type: 'text' },
        ]}
        emptyText={t('borrow.archiveEmpty')}
      />
      <ArchiveActionDialog target={acting} onClose={() => setActing(null)} />
    </>
  );
}

export default function BorrowManagePage() {
  const { t } = useTranslation();
  const info = useAuthInfo();
  const [sp, setSp] = useSearchParams();
  const keeper = hasRole((info.data?.roles ?? []).map((r) => r.role), ['admin', 'center_admin']);
  const view = keeper && sp.get('view') === 'archive' ? 'archive' : 'loans';
  // The two lists keep their own query state: switching starts the other afresh.
  const switchTo = (v: string) => setSp(v === 'archive' ? { view: 'archive' } : {}, { replace: true });
  return (
    <PageContainer title={t('borrow.title')} subtitle={t('borrow.subtitle')}>
      {keeper && (
        <Segmented
          style={{ marginBottom: 12 }}
          value={view}
          onChange={(v) => switchTo(String(v))}
          options={[
            { value: 'loans', label: <span data-testid="borrow-view-loans"><SwapOutlined /> {t('borrow.loans')}</span> },
            { value: 'archive', label: <span data-testid="borrow-view-archive"><ContainerOutlined /> {t('borrow.archiveView')}</span> },
          ]}
        />
      )}
      {view === 'archive' ? <Archive key="archive" /> : <Loans key="loans" />}
      {!keeper && <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>{t('borrow.siteHint')}</Typography.Paragraph>}
    </PageContainer>
  );
}
