import { useState } from 'react';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ApiData, User } from '../../lib/api/types';
import type { ListColumn } from '../../components/ui/list/types';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import { useRoleLabel } from '../../lib/appData';
import { formatDateTime } from '../../lib/format';
import { countAdministrators, fetchAdministrators, userKeys } from './api';
import { UserFormDrawer } from './UserFormDrawer';
import { UserRowActions } from './UserRowActions';
import { ResetPasswordModal } from './ResetPasswordModal';

type Administrator = NonNullable<ApiData<'/api/admin/manage', 'get'>>[number];

/** /admin/manage — the administrators and center administrators, with what each may manage (spec 1 §2). */
export default function AdminManagePage() {
  const { t } = useTranslation();
  const roleLabel = useRoleLabel();
  const [editing, setEditing] = useState<number | null | undefined>(undefined);
  const [resetting, setResetting] = useState<User | null>(null);
  const columns: ListColumn<Administrator>[] = [
    { key: 'username', title: t('user.table.username'), width: 150, sortable: true, filterable: true, render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
    { key: 'name', title: t('user.table.name'), width: 180, sortable: true, filterable: true },
    {
      key: 'role',
      dataIndex: 'roles',
      title: t('user.table.roles'),
      width: 200,
      render: (roles: string[]) => (
        <Space size={[4, 4]} wrap>
          {(roles ?? []).map((r) => (
            <Tag key={r} color="blue" bordered={false}>
              {roleLabel(r)}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      key: 'center_id',
      title: t('adminManage.manages'),
      width: 280,
      ellipsis: false,
      render: (_: unknown, u) =>
        u.manages_all ? (
          <Typography.Text>{t('adminManage.everything')}</Typography.Text>
        ) : u.centers?.length ? (
          <Space size={[4, 4]} wrap>
            {u.centers.map((c) => (
              <Tag key={c.id} bordered={false}>
                {c.name}
              </Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('adminManage.nothing')}</Typography.Text>
        ),
    },
    { key: 'phone', title: t('user.table.phone'), width: 140, filterable: true, defaultHidden: true },
    { key: 'status', title: t('user.table.status'), width: 100, sortable: true, filterable: true, render: (s: number) =>
        s === 1 ? (
          // antd's success green text is below AA contrast on its tint.
          <Tag color="blue" bordered={false}>
            {t('common.status.enabled')}
          </Tag>
        ) : (
          <Tag>{t('common.status.disabled')}</Tag>
        ),
    },
    { key: 'last_login_at', title: t('user.table.lastLogin'), width: 180, sortable: true, render: formatDateTime },
    { key: 'actions', title: t('common.actions'), width: 340, fixed: 'right', ellipsis: false, render: (_: unknown, u) => <UserRowActions user={u} onEdit={(x) => setEditing(x.id)} onResetPassword={setResetting} /> },
  ];
  return (
    <PageContainer title={t('adminManage.title')} subtitle={t('adminManage.subtitle')}>
      <DataList<Administrator>
        tableId="admin.manage"
        queryKey={[...userKeys.all, 'administrators']}
        fetchList={fetchAdministrators}
        fetchCount={countAdministrators}
        columns={columns}
        defaultSort={{ username: 'asc' }}
        tabs={['all', 'admin', 'center_admin'].map((k) => ({ key: k, label: k === 'all' ? t('user.tabs.all') : roleLabel(k) }))}
        searchFields={[
          { name: 'username', label: t('user.table.username'), type: 'text' },
          { name: 'name', label: t('user.table.name'), type: 'text' },
        ]}
        searchPlaceholder={t('user.searchPlaceholder')}
        emptyText={t('user.empty')}
      />
      <UserFormDrawer id={editing ?? null} open={editing !== undefined} onClose={() => setEditing(undefined)} />
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
    </PageContainer>
  );
}
