// The expert's handwritten signature, printed beside their name on the
// reports they sign: upload (PNG or JPEG), see it, remove it.
import { useEffect } from 'react';
import { App, Button, Card, Empty, Flex, Popconfirm, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../components/ui/useApiError';
import { useRemoveSignature, useSetSignature, useSignature } from './signatureApi';

export function SignatureCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const sig = useSignature(true);
  const set = useSetSignature();
  const remove = useRemoveSignature();
  useEffect(() => () => {
    if (sig.data) URL.revokeObjectURL(sig.data);
  }, [sig.data]);
  const upload = (file: File) => {
    set.mutate(file, { onSuccess: () => void message.success(t('account.signature.saved')), onError: (e) => showError(e) });
    return false; // the mutation sends it, not antd's uploader
  };
  return (
    <Card title={t('account.signature.title')} data-testid="account-signature">
      <Typography.Paragraph type="secondary">{t('account.signature.note')}</Typography.Paragraph>
      <Flex gap={24} align="center" wrap>
        <div style={{ width: 260, height: 96, border: '1px dashed #c8cdd4', borderRadius: 6, display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#fff' }}>
          {sig.data ? (
            <img src={sig.data} alt={t('account.signature.title')} style={{ maxWidth: 240, maxHeight: 80 }} data-testid="account-signature-image" />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('account.signature.none')} style={{ margin: 0 }} />
          )}
        </div>
        <Space direction="vertical">
          <Upload accept="image/png,image/jpeg" showUploadList={false} beforeUpload={upload}>
            <Button icon={<UploadOutlined />} loading={set.isPending} data-testid="account-signature-upload">
              {sig.data ? t('account.signature.replace') : t('account.signature.upload')}
            </Button>
          </Upload>
          {sig.data && (
            <Popconfirm title={t('account.signature.removeConfirm')} okText={t('common.delete')} cancelText={t('common.cancel')} okButtonProps={{ danger: true }}
              onConfirm={() => remove.mutateAsync().then(() => void message.success(t('account.signature.removed')), (e) => showError(e))}>
              <Button danger icon={<DeleteOutlined />}>{t('account.signature.remove')}</Button>
            </Popconfirm>
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('account.signature.hint')}</Typography.Text>
        </Space>
      </Flex>
    </Card>
  );
}
