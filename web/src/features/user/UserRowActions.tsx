import { App, Button, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { User } from '../../lib/api/types';
import { useConfirm, useConfirmDelete } from '../../components/ui/useConfirm';
import { useApiError } from '../../components/ui/useApiError';
import { useDeleteUser, useSetUserStatus, useUnlockUser } from './api';

interface Props {
  user: User;
  onEdit: (u: User) => void;
  onResetPassword: (u: User) => void;
}

export function UserRowActions({ user, onEdit, onResetPassword }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirm();
  const confirmDelete = useConfirmDelete();
  const showError = useApiError();
  const setStatus = useSetUserStatus();
  const unlock = useUnlockUser();
  const del = useDeleteUser();
  const done = () => void message.success(t('common.done'));
  const enabled = user.status === 1;
  // A user shared with a center or hospital outside the caller's reach is
  // shown, not managed: the server says which (manageable).
  if (!user.manageable) {
    return (
      <Tooltip title={t('user.readOnlyHint')}>
        <Tag data-testid={`user-readonly-${user.username}`}>{t('user.readOnly')}</Tag>
      </Tooltip>
    );
  }
  return (
    <Space size={0} data-testid={`user-actions-${user.username}`}>
      <Button type="link" size="small" onClick={() => onEdit(user)}>
        {t('common.edit')}
      </Button>
      <Button
        type="link"
        size="small"
        onClick={() => confirm(t(enabled ? 'user.disableConfirm' : 'user.enableConfirm', { name: user.username }), () => setStatus.mutateAsync({ id: user.id, status: enabled ? 0 : 1 }).then(done, showError))}
      >
        {t(enabled ? 'user.disable' : 'user.enable')}
      </Button>
      <Button type="link" size="small" onClick={() => onResetPassword(user)}>
        {t('user.resetPassword')}
      </Button>
      {user.is_locked && (
        <Button type="link" size="small" onClick={() => confirm(t('user.unlockConfirm', { name: user.username }), () => unlock.mutateAsync(user.id).then(done, showError))}>
          {t('user.unlock')}
        </Button>
      )}
      <Button type="link" size="small" danger onClick={() => confirmDelete(() => del.mutateAsync(user.id))}>
        {t('common.delete')}
      </Button>
    </Space>
  );
}
