import { useState } from 'react';
import { Button, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Hospital } from '../../lib/api/types';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { formatDateTime } from '../../lib/format';
import { StatusTag, useStatusOptions } from '../../components/ui/StatusTag';
import { useConfirmDelete } from '../../components/ui/useConfirm';
import { useCenterOptions } from '../../entities/org/options';
import { hospitalKeys } from '../../entities/org/api';
import { countHospitals, fetchHospitals, useDeleteHospital } from './api';
import { HospitalFormDrawer } from './HospitalFormDrawer';
import { BindCentersModal } from './BindCentersModal';

const STORAGE_COLORS = ['default', 'blue', 'orange'];

export default function HospitalListPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const [binding, setBinding] = useState<Hospital | null>(null);
  const del = useDeleteHospital();
  const confirmDelete = useConfirmDelete();
  const statusOptions = useStatusOptions();
  const centers = useCenterOptions();
  const columns: ListColumn<Hospital>[] = [
    { key: 'id', title: t('hospital.table.id'), width: 80, sortable: true, filterable: true },
    { key: 'name', title: t('hospital.table.name'), width: 220, sortable: true, filterable: true },
    { key: 'abbreviation', title: t('hospital.table.abbreviation'), width: 110, sortable: true, filterable: true },
    { key: 'code', title: t('hospital.table.code'), width: 100, sortable: true, filterable: true },
    { key: 'centers', title: t('hospital.table.centers'), width: 220, render: (cs: Hospital['centers']) => (cs ?? []).map((c) => <Tag key={c.id} bordered={false} color="geekblue">{c.name}</Tag>) },
    { key: 'public_ip', title: t('hospital.table.publicIp'), width: 150, filterable: true, render: (ip: string, h) => <span className="tp-mono">{ip}:{h.port}</span> },
    { key: 'storage_mode', title: t('hospital.table.storageMode'), width: 130, render: (m: number) => <Tag color={STORAGE_COLORS[m]}>{t(`hospital.storageMode.${m}`)}</Tag> },
    { key: 'expert_select', title: t('hospital.table.expertSelect'), width: 130, defaultHidden: true, render: (m: number) => t(`hospital.expertSelect.${m}`) },
    { key: 'contact', title: t('hospital.table.contact'), width: 110, filterable: true },
    { key: 'phone', title: t('hospital.table.phone'), width: 140 },
    { key: 'status', title: t('hospital.table.status'), width: 100, sortable: true, filterable: true, render: (s: number) => <StatusTag status={s} /> },
    { key: 'created_at', title: t('hospital.table.createdAt'), width: 180, sortable: true, render: formatDateTime },
    {
      key: 'actions', title: t('common.actions'), width: 220, fixed: 'right', ellipsis: false,
      render: (_: unknown, h) => (
        <Space size={0} data-testid={`hospital-actions-${h.id}`}>
          <Button type="link" size="small" onClick={() => setEditing({ id: h.id })}>{t('common.edit')}</Button>
          <Button type="link" size="small" onClick={() => setBinding(h)}>{t('hospital.bind')}</Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => del.mutateAsync(h.id))}>{t('common.delete')}</Button>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer title={t('hospital.title')} subtitle={t('hospital.subtitle')}>
      <DataList<Hospital>
        tableId="org.hospital"
        queryKey={hospitalKeys.all}
        fetchList={fetchHospitals}
        fetchCount={countHospitals}
        columns={columns}
        defaultSort={{ id: 'asc' }}
        searchFields={[
          { name: 'name', label: t('hospital.table.name'), type: 'text' },
          { name: 'center_id', label: t('hospital.table.centers'), type: 'select', multiple: true, options: centers.data ?? [] },
          { name: 'status', label: t('hospital.table.status'), type: 'select', options: statusOptions },
        ]}
        toolbar={<Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ id: null })} data-testid="hospital-create">{t('hospital.create')}</Button>}
        emptyText={t('hospital.empty')}
      />
      <HospitalFormDrawer id={editing?.id ?? null} open={editing !== null} onClose={() => setEditing(null)} />
      <BindCentersModal hospital={binding} onClose={() => setBinding(null)} />
    </PageContainer>
  );
}
