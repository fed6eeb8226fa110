import { useState } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { User } from '../../lib/api/types';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import { useRoleLabel, useRoles } from '../../lib/appData';
import { countUsers, fetchUsers, userKeys } from './api';
import { useUserColumns } from './useUserColumns';
import { UserFormDrawer } from './UserFormDrawer';
import { UserRowActions } from './UserRowActions';
import { ResetPasswordModal } from './ResetPasswordModal';
import { UserBatchActions } from './UserBatchActions';

export default function UserListPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const roles = useRoles();
  const roleLabel = useRoleLabel();
  const columns = useUserColumns((u) => <UserRowActions user={u} onEdit={(x) => setEditing({ id: x.id })} onResetPassword={setResetting} />);

  return (
    <PageContainer title={t('user.title')} subtitle={t('user.subtitle')}>
      <DataList<User>
        tableId="system.user"
        queryKey={userKeys.all}
        fetchList={fetchUsers}
        fetchCount={countUsers}
        columns={columns}
        defaultSort={{ created_at: 'desc' }}
        tabs={['all', 'enabled', 'disabled', 'locked'].map((k) => ({ key: k, label: t(`user.tabs.${k}`) }))}
        searchFields={[
          { name: 'username', label: t('user.table.username'), type: 'text' },
          { name: 'name', label: t('user.table.name'), type: 'text' },
          { name: 'role', label: t('user.table.roles'), type: 'select', multiple: true, options: (roles.data ?? []).map((r) => ({ value: r.role, label: roleLabel(r.role) })) },
          { name: 'created_at', label: t('user.table.createdAt'), type: 'dateRange' },
        ]}
        searchPlaceholder={t('user.searchPlaceholder')}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ id: null })} data-testid="user-create">
            {t('user.create')}
          </Button>
        }
        batchActions={(ids, clear) => <UserBatchActions ids={ids} onDone={clear} />}
        emptyText={t('user.empty')}
      />
      <UserFormDrawer id={editing?.id ?? null} open={editing !== null} onClose={() => setEditing(null)} />
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
    </PageContainer>
  );
}
