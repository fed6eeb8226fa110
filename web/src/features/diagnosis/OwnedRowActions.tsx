// Edit and delete of a template or term the caller may change; a dash otherwise.
import { App, Button, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../components/ui/useApiError';

interface Props {
  editable: boolean;
  confirm: string;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
  testId?: string;
}

export function OwnedRowActions({ editable, confirm, onEdit, onDelete, testId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  if (!editable) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={0}>
      <Button type="link" size="small" onClick={onEdit} data-testid={testId && `${testId}-edit`}>
        {t('common.edit')}
      </Button>
      <Popconfirm
        title={confirm}
        okText={t('common.delete')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={() => onDelete().then(() => void message.success(t('confirm.deleted')), (e) => showError(e))}
      >
        <Button type="link" size="small" danger data-testid={testId && `${testId}-delete`}>
          {t('common.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
