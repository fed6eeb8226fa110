// /admin/invited-manage — every expert invitation on the cases of the
// centers the administrator manages: who asked whom, about which case, and
// the answer (spec 1 §2 admin and center_admin).
import { useMemo, useState } from 'react';
import { Button, Tag, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useSearchParams } from '../../lib/searchParams';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { toApiError, unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import { downloadBlob } from '../../lib/download';
import { session } from '../../lib/session';
import { languageStore } from '../../lib/prefs';
import { formatDateTime } from '../../lib/format';
import { parseQuery, toApiQuery, type ApiListQuery } from '../../lib/list/query';
import type { ApiData } from '../../lib/api/types';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { CountQuery, ListColumn } from '../../components/ui/list/types';
import { useApiError } from '../../components/ui/useApiError';

type Item<T> = T extends readonly (infer I)[] ? I : never;
export type ManagedInvitation = Item<ApiData<'/api/admin/invited/list', 'get'>>;

const invitedKey = ['admin', 'invited'] as const;
const fetchList = async (query: ApiListQuery) => listResult(await api.GET('/api/admin/invited/list', { params: { query } }));
const fetchCount = async (query: CountQuery) => unwrap(await api.GET('/api/admin/invited/count', { params: { query } }));

async function exportInvitations(query: Partial<ApiListQuery>, filename: string): Promise<void> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') qs.set(k, String(v));
  const headers: Record<string, string> = { 'user-language': languageStore.get() };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`/api/admin/invited/export?${qs}`, { headers });
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null), res.statusText);
  downloadBlob(await res.blob(), filename);
}

export default function InvitedManagePage() {
  const { t } = useTranslation();
  const showError = useApiError();
  const [sp] = useSearchParams();
  const [exporting, setExporting] = useState(false);
  const people = useQuery({ queryKey: [...invitedKey, 'people'], queryFn: async () => unwrap(await api.GET('/api/admin/invited/people')) ?? [] });
  const options = (people.data ?? []).map((p) => ({ value: p.id, label: p.name }));

  const doExport = async () => {
    setExporting(true);
    try {
      const { page: _p, page_size: _s, ...q } = toApiQuery(parseQuery(sp));
      await exportInvitations(q, `${t('invitedManage.title')}-${new Date().toISOString().slice(0, 10)}.xlsx`);
    } catch (e) {
      showError(e);
    } finally {
      setExporting(false);
    }
  };

  const columns = useMemo<ListColumn<ManagedInvitation>[]>(
    () => [
      {
        key: 'consult_no',
        title: t('case.field.consultNo'),
        width: 170,
        sortable: true,
        render: (x: string, r: ManagedInvitation) => (
          <Link className="tp-mono" to={`/case/detail/${r.consult_id}`}>
            {x}
          </Link>
        ),
      },
      { key: 'patient_name', title: t('case.field.name'), width: 110, sortable: true },
      { key: 'inviter_name', title: t('diagnosis.invite.inviter'), width: 130, sortable: true },
      { key: 'invitee_name', title: t('diagnosis.invite.invitee'), width: 130, sortable: true },
      { key: 'created_at', title: t('invitedManage.invitedAt'), width: 170, sortable: true, render: (x: string) => formatDateTime(x) },
      {
        key: 'message',
        title: t('invitedManage.message'),
        width: 200,
        render: (x: string) => (x ? <Typography.Text ellipsis={{ tooltip: x }}>{x}</Typography.Text> : '—'),
      },
      {
        key: 'status',
        title: t('case.field.status'),
        width: 100,
        render: (x: number) => (x === 1 ? <Tag color="green" bordered={false} style={{ color: '#135200' }}>{t('invitedManage.answered')}</Tag> : <Tag color="orange" bordered={false} style={{ color: '#873800' }}>{t('invitedManage.unanswered')}</Tag>),
      },
      {
        key: 'reply',
        title: t('diagnosis.invite.replyLabel'),
        width: 260,
        render: (x: string) => (x ? <Typography.Text ellipsis={{ tooltip: x }} style={{ display: 'block' }}>{x}</Typography.Text> : '—'),
      },
      { key: 'replied_at', title: t('invitedManage.repliedAt'), width: 170, sortable: true, render: (x: string | null) => (x ? formatDateTime(x) : '—') },
    ],
    [t],
  );

  return (
    <PageContainer title={t('invitedManage.title')} subtitle={t('invitedManage.subtitle')}>
      <DataList<ManagedInvitation>
        tableId="admin.invited"
        queryKey={invitedKey}
        fetchList={fetchList}
        fetchCount={fetchCount}
        columns={columns}
        defaultSort={{ created_at: 'desc' }}
        tabs={['all', 'unanswered', 'answered'].map((k) => ({ key: k, label: t(`invitedManage.tab.${k}`) }))}
        searchFields={[
          { name: 'inviter_id', label: t('diagnosis.invite.inviter'), type: 'select', options },
          { name: 'invitee_id', label: t('diagnosis.invite.invitee'), type: 'select', options },
          { name: 'created_at', label: t('invitedManage.invitedAt'), type: 'dateRange' },
        ]}
        searchPlaceholder={t('invitedManage.searchPlaceholder')}
        toolbar={
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="invited-export">
            {t('invitedManage.export')}
          </Button>
        }
        emptyText={t('invitedManage.empty')}
      />
    </PageContainer>
  );
}
