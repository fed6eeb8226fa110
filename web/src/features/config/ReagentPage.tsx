import { useState } from 'react';
import { Badge, Button, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { useConfirmDelete } from '../../components/ui/useConfirm';
import { formatDateTime } from '../../lib/format';
import { countReagents, fetchReagents, reagentKeys, useDeleteReagents, type Reagent } from './api';
import { ReagentFormDrawer } from './ReagentFormDrawer';

/** /setting/reagent: antibodies and reagents of special exams; the advice dialog offers the enabled, unexpired ones. */
export default function ReagentPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const del = useDeleteReagents();
  const confirmDelete = useConfirmDelete();
  const today = dayjs().format('YYYY-MM-DD');
  const columns: ListColumn<Reagent>[] = [
    { key: 'name', title: t('reagent.field.name'), width: 180, sortable: true, filterable: true },
    { key: 'clone', title: t('reagent.field.clone'), width: 140, sortable: true, filterable: true },
    { key: 'vendor', title: t('reagent.field.vendor'), width: 160, sortable: true, filterable: true },
    { key: 'lot', title: t('reagent.field.lot'), width: 140, sortable: true, filterable: true },
    {
      key: 'expires_on', title: t('reagent.field.expiresOn'), width: 150, sortable: true,
      render: (d: string) => (d < today ? <Space size={6}>{d}<Badge status="error" text={t('reagent.expired')} /></Space> : d),
    },
    { key: 'status', title: t('reagent.field.status'), width: 100, sortable: true, filterable: true, render: (s: number) => <Badge status={s === 1 ? 'success' : 'default'} text={t(s === 1 ? 'common.status.enabled' : 'common.status.disabled')} /> },
    { key: 'updated_at', title: t('reagent.field.updatedAt'), width: 180, sortable: true, render: formatDateTime },
    {
      key: 'actions', title: t('common.actions'), width: 150, fixed: 'right', ellipsis: false,
      render: (_: unknown, r) => (
        <Space size={0} data-testid={`reagent-actions-${r.id}`}>
          <Button type="link" size="small" onClick={() => setEditing({ id: r.id })}>{t('common.edit')}</Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => del.mutateAsync([r.id]))}>{t('common.delete')}</Button>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer title={t('reagent.title')} subtitle={t('reagent.subtitle')}>
      <DataList<Reagent>
        tableId="config.reagent"
        queryKey={reagentKeys.all}
        fetchList={fetchReagents}
        fetchCount={countReagents}
        columns={columns}
        defaultSort={{ name: 'asc' }}
        tabs={['all', 'enabled', 'disabled'].map((k) => ({ key: k, label: t(`common.tabs.${k}`) }))}
        searchFields={[
          { name: 'name', label: t('reagent.field.name'), type: 'text' },
          { name: 'lot', label: t('reagent.field.lot'), type: 'text' },
        ]}
        searchPlaceholder={t('reagent.searchPlaceholder')}
        toolbar={<Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ id: null })} data-testid="reagent-create">{t('reagent.create')}</Button>}
        batchActions={(ids, clear) => (
          <Button danger onClick={() => confirmDelete(() => del.mutateAsync(ids.map(Number)).then(clear))}>{t('reagent.batchDelete', { count: ids.length })}</Button>
        )}
        emptyText={t('reagent.empty')}
      />
      <ReagentFormDrawer id={editing?.id ?? null} open={editing !== null} onClose={() => setEditing(null)} />
    </PageContainer>
  );
}
