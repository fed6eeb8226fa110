import { useState } from 'react';
import { Button, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { StatusTag } from '../../components/ui/StatusTag';
import { useConfirmDelete } from '../../components/ui/useConfirm';
import { formatDateTime } from '../../lib/format';
import { chargeItemKeys, countChargeItems, fetchChargeItems, useDeleteChargeItems, type ChargeItem } from './api';
import { ChargeItemFormDrawer } from './ChargeItemFormDrawer';

/** /setting/chargeItem: the items a site charges a case from (spec 2 §3 Charge). */
export default function ChargeItemPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const del = useDeleteChargeItems();
  const confirmDelete = useConfirmDelete();
  const columns: ListColumn<ChargeItem>[] = [
    { key: 'id', title: t('chargeItem.table.id'), width: 80, sortable: true, filterable: true },
    { key: 'name', title: t('chargeItem.table.name'), width: 220, sortable: true, filterable: true },
    { key: 'price_fen', dataIndex: 'price', title: t('chargeItem.table.price'), width: 120, sortable: true, align: 'right', render: (p: number) => `¥${p.toFixed(2)}` },
    { key: 'unit', title: t('chargeItem.table.unit'), width: 90, filterable: true },
    { key: 'number', title: t('chargeItem.table.number'), width: 100, align: 'right' },
    { key: 'item_code', title: t('chargeItem.table.itemCode'), width: 150, sortable: true, filterable: true },
    { key: 'inner_code', title: t('chargeItem.table.innerCode'), width: 130, sortable: true, filterable: true },
    { key: 'input_code', title: t('chargeItem.table.inputCode'), width: 120, sortable: true, filterable: true },
    { key: 'status', title: t('chargeItem.table.status'), width: 100, sortable: true, filterable: true, render: (s: number) => <StatusTag status={s} /> },
    { key: 'updated_at', title: t('chargeItem.table.updatedAt'), width: 180, sortable: true, render: formatDateTime },
    {
      key: 'actions', title: t('common.actions'), width: 150, fixed: 'right', ellipsis: false,
      render: (_: unknown, it) => (
        <Space size={0} data-testid={`charge-item-actions-${it.id}`}>
          <Button type="link" size="small" onClick={() => setEditing({ id: it.id })}>{t('common.edit')}</Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => del.mutateAsync([it.id]))}>{t('common.delete')}</Button>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer title={t('chargeItem.title')} subtitle={t('chargeItem.subtitle')}>
      <DataList<ChargeItem>
        tableId="config.chargeItem"
        queryKey={chargeItemKeys.all}
        fetchList={fetchChargeItems}
        fetchCount={countChargeItems}
        columns={columns}
        defaultSort={{ id: 'asc' }}
        tabs={['all', 'enabled', 'disabled'].map((k) => ({ key: k, label: t(`common.tabs.${k}`) }))}
        searchFields={[
          { name: 'name', label: t('chargeItem.table.name'), type: 'text' },
          { name: 'item_code', label: t('chargeItem.table.itemCode'), type: 'text' },
        ]}
        searchPlaceholder={t('chargeItem.searchPlaceholder')}
        toolbar={<Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ id: null })} data-testid="charge-item-create">{t('chargeItem.create')}</Button>}
        batchActions={(ids, clear) => (
          <Button danger onClick={() => confirmDelete(() => del.mutateAsync(ids.map(Number)).then(clear))}>{t('chargeItem.batchDelete', { count: ids.length })}</Button>
        )}
        emptyText={t('chargeItem.empty')}
      />
      <ChargeItemFormDrawer id={editing?.id ?? null} open={editing !== null} onClose={() => setEditing(null)} />
    </PageContainer>
  );
}
