import { Space, Tag, Tooltip, Typography } from 'antd';
import { LockFilled } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../lib/api/types';
import type { ListColumn } from '../../components/ui/list/types';
import { StatusTag } from '../../components/ui/StatusTag';
import { useRoleLabel } from '../../lib/appData';
import { formatDateTime } from '../../lib/format';

const names = (list: { name: string }[] | undefined) => (list ?? []).map((x) => x.name).join('、');

export function useUserColumns(actions: (u: User) => ReactNode): ListColumn<User>[] {
  const { t } = useTranslation();
  const roleLabel = useRoleLabel();
  return [
    { key: 'id', title: t('user.table.id'), width: 80, sortable: true, filterable: true },
    { key: 'username', title: t('user.table.username'), width: 150, sortable: true, filterable: true, render: (v: string, u) => (
      <Space size={4}>
        <Typography.Text strong>{v}</Typography.Text>
        {u.is_locked && (
          <Tooltip title={t('user.lockedUntil', { time: formatDateTime(u.locked_until) })}>
            <LockFilled style={{ color: '#d4380d' }} aria-label={t('user.tabs.locked')} />
          </Tooltip>
        )}
      </Space>
    ) },
    { key: 'name', title: t('user.table.name'), width: 170, sortable: true, filterable: true },
    { key: 'role', dataIndex: 'roles', title: t('user.table.roles'), width: 220, filterable: true, render: (roles: string[]) => (
      <Space size={[4, 4]} wrap>
        {(roles ?? []).map((r) => (
          <Tag key={r} color="blue" bordered={false}>{roleLabel(r)}</Tag>
        ))}
      </Space>
    ) },
    { key: 'center_id', dataIndex: 'centers', title: t('user.table.centers'), width: 180, filterable: true, render: names },
    { key: 'hospital_id', dataIndex: 'hospitals', title: t('user.table.hospitals'), width: 180, filterable: true, render: names },
    { key: 'phone', title: t('user.table.phone'), width: 140, filterable: true },
    { key: 'email', title: t('user.table.email'), width: 200, filterable: true, defaultHidden: true },
    { key: 'work_no', title: t('user.table.workNo'), width: 120, sortable: true, filterable: true, defaultHidden: true },
    { key: 'status', title: t('user.table.status'), width: 100, sortable: true, filterable: true, render: (s: number) => <StatusTag status={s} /> },
    { key: 'last_login_at', title: t('user.table.lastLogin'), width: 180, sortable: true, render: formatDateTime },
    { key: 'created_at', title: t('user.table.createdAt'), width: 180, sortable: true, render: formatDateTime },
    { key: 'actions', title: t('common.actions'), width: 320, fixed: 'right', ellipsis: false, render: (_: unknown, u) => actions(u) },
  ];
}
