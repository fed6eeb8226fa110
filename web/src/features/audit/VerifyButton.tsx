import { App, Button } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../components/ui/useApiError';
import { verifyOperationLog } from './api';

/** Checks the log's hash chain on the server and says whether any record was changed or removed. */
export function VerifyButton() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const showError = useApiError();
  const verify = useMutation({ mutationFn: verifyOperationLog });
  const run = () =>
    verify.mutateAsync().then((r) => {
      if (r.ok) void modal.success({ title: t('audit.verify.title'), content: t('audit.verify.ok', { checked: r.checked, pending: r.pending }) });
      else void modal.error({ title: t('audit.verify.title'), content: t('audit.verify.broken', { message: r.broken?.message ?? '' }) });
    }, showError);
  return (
    <Button icon={<SafetyCertificateOutlined />} loading={verify.isPending} onClick={run} data-testid="audit-verify">
      {t('audit.verify.button')}
    </Button>
  );
}
