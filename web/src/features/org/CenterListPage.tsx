import { useState } from 'react';
import { Button, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Center } from '../../lib/api/types';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { formatDateTime } from '../../lib/format';
import { StatusTag, useStatusOptions } from '../../components/ui/StatusTag';
import { useConfirmDelete } from '../../components/ui/useConfirm';
import { centerKeys } from '../../entities/org/api';
import { countCenters, fetchCenters, useDeleteCenter } from './api';
import { CenterFormDrawer } from './CenterFormDrawer';

const TREE = { id: 'id', parent: 'parent_id', column: 'name' } as const;

export default function CenterListPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ id: number | null; parentId?: number } | null>(null);
  const del = useDeleteCenter();
  const confirmDelete = useConfirmDelete();
  const statusOptions = useStatusOptions();
  const columns: ListColumn<Center>[] = [
    { key: 'id', title: t('center.table.id'), width: 80, sortable: true, filterable: true },
    { key: 'name', title: t('center.table.name'), width: 280, sortable: true, filterable: true },
    { key: 'code', title: t('center.table.code'), width: 120, sortable: true, filterable: true },
    { key: 'parent_name', title: t('center.table.parent'), width: 180, render: (v: string) => v || '—' },
    { key: 'hospital_count', title: t('center.table.hospitalCount'), width: 120, align: 'right' },
    { key: 'contact', title: t('center.table.contact'), width: 120, filterable: true },
    { key: 'phone', title: t('center.table.phone'), width: 140, filterable: true },
    { key: 'address', title: t('center.table.address'), width: 220, defaultHidden: true },
    { key: 'status', title: t('center.table.status'), width: 100, sortable: true, filterable: true, render: (s: number) => <StatusTag status={s} /> },
    { key: 'created_at', title: t('center.table.createdAt'), width: 180, sortable: true, render: formatDateTime },
    {
      key: 'actions', title: t('common.actions'), width: 220, fixed: 'right', ellipsis: false,
      render: (_: unknown, c) => (
        <Space size={0} data-testid={`center-actions-${c.id}`}>
          <Button type="link" size="small" onClick={() => setEditing({ id: c.id })}>{t('common.edit')}</Button>
          <Button type="link" size="small" onClick={() => setEditing({ id: null, parentId: c.id })}>{t('center.addSub')}</Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => del.mutateAsync(c.id))}>{t('common.delete')}</Button>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer title={t('center.title')} subtitle={t('center.subtitle')}>
      <DataList<Center>
        tableId="org.center"
        queryKey={centerKeys.all}
        fetchList={fetchCenters}
        fetchCount={countCenters}
        columns={columns}
        defaultSort={{ id: 'asc' }}
        tree={TREE}
        searchFields={[
          { name: 'name', label: t('center.table.name'), type: 'text' },
          { name: 'status', label: t('center.table.status'), type: 'select', options: statusOptions },
        ]}
        toolbar={<Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ id: null })} data-testid="center-create">{t('center.create')}</Button>}
        emptyText={t('center.empty')}
      />
      <CenterFormDrawer id={editing?.id ?? null} parentId={editing?.parentId} open={editing !== null} onClose={() => setEditing(null)} />
    </PageContainer>
  );
}
