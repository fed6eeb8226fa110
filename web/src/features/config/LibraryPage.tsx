import { useState } from 'react';
import { Button, Space, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { StatusTag } from '../../components/ui/StatusTag';
import { useConfirmDelete } from '../../components/ui/useConfirm';
import { formatDateTime } from '../../lib/format';
import { countLibraries, fetchLibraries, libraryKeys, REPORT_KINDS, useDeleteLibrary, type Library } from './api';
import { LibraryFormDrawer } from './LibraryFormDrawer';

const TREE = { id: 'id', parent: 'parent_id', column: 'name' } as const;

/** /bank/manage: pathology libraries with their number rules and hesitation periods. */
export default function LibraryPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ id: number | null; parentId?: number } | null>(null);
  const del = useDeleteLibrary();
  const confirmDelete = useConfirmDelete();
  const columns: ListColumn<Library>[] = [
    { key: 'id', title: t('library.table.id'), width: 80, sortable: true, filterable: true },
    { key: 'name', title: t('library.table.name'), width: 220, sortable: true, filterable: true },
    { key: 'pis_code', title: t('library.table.pisCode'), width: 130, sortable: true, filterable: true },
    { key: 'number_name', title: t('library.table.numberName'), width: 140, filterable: true },
    { key: 'example', title: t('library.table.example'), width: 180, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { key: 'report_kind', title: t('library.table.reportKind'), width: 140, sortable: true, filterable: true, render: (k: string) => <Tag bordered={false} color="geekblue">{t(`library.kind.${k}`)}</Tag> },
    { key: 'delay_hours', title: t('library.table.delayHours'), width: 170, sortable: true, filterable: true, align: 'right', render: (h: number) => t('library.hours', { count: h }) },
    { key: 'status', title: t('library.table.status'), width: 100, sortable: true, filterable: true, render: (s: number) => <StatusTag status={s} /> },
    { key: 'updated_at', title: t('library.table.updatedAt'), width: 180, sortable: true, render: formatDateTime },
    {
      key: 'actions', title: t('common.actions'), width: 270, fixed: 'right', ellipsis: false,
      render: (_: unknown, l) => (
        <Space size={0} data-testid={`library-actions-${l.id}`}>
          <Button type="link" size="small" onClick={() => setEditing({ id: l.id })}>{t('common.edit')}</Button>
          {l.parent_id == null && <Button type="link" size="small" onClick={() => setEditing({ id: null, parentId: l.id })}>{t('library.addSub')}</Button>}
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => del.mutateAsync(l.id))}>{t('common.delete')}</Button>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer title={t('library.title')} subtitle={t('library.subtitle')}>
      <DataList<Library>
        tableId="config.library"
        queryKey={libraryKeys.all}
        fetchList={fetchLibraries}
        fetchCount={countLibraries}
        columns={columns}
        defaultSort={{ id: 'asc' }}
        tree={TREE}
        tabs={['all', 'enabled', 'disabled'].map((k) => ({ key: k, label: t(`common.tabs.${k}`) }))}
        searchFields={[
          { name: 'name', label: t('library.table.name'), type: 'text' },
          { name: 'report_kind', label: t('library.table.reportKind'), type: 'select', options: REPORT_KINDS.map((k) => ({ value: k, label: t(`library.kind.${k}`) })) },
        ]}
        searchPlaceholder={t('library.searchPlaceholder')}
        toolbar={<Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ id: null })} data-testid="library-create">{t('library.create')}</Button>}
        emptyText={t('library.empty')}
      />
      <LibraryFormDrawer id={editing?.id ?? null} parentId={editing?.parentId} open={editing !== null} onClose={() => setEditing(null)} />
    </PageContainer>
  );
}
