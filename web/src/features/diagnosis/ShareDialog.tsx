// The workspace's "share" action: public or secret link, expiry, what is
// included, de-identification; then the link (and code), shown once.
import { useState } from 'react';
import { Alert, Checkbox, Form, Modal, Radio, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { createShare, shareKeys, shareLink, type CreatedShare, type ShareInput } from '../../entities/case/share';
import { useApiError } from '../../components/ui/useApiError';

interface Values {
  secret: boolean;
  expiry_days: 0 | 1 | 7 | 30;
  parts: ('report' | 'attachments' | 'clinical' | 'annotations')[];
  deidentify: boolean;
}

export function ShareDialog({ caseId, open, onClose }: { caseId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const showError = useApiError();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<CreatedShare | null>(null);
  const close = () => {
    setMade(null);
    form.resetFields();
    onClose();
  };
  const submit = async (v: Values) => {
    const body: ShareInput = {
      consult_id: caseId, secret: v.secret, expiry_days: v.expiry_days, deidentify: v.deidentify,
      with_report: v.parts.includes('report'), with_attachments: v.parts.includes('attachments'), with_clinical: v.parts.includes('clinical'),
      with_annotations: v.parts.includes('annotations'),
    };
    setBusy(true);
    try {
      setMade(await createShare(body));
      void qc.invalidateQueries({ queryKey: shareKeys.all });
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('share.dialog.title')}
      okText={made ? t('common.ok') : t('share.dialog.create')}
      cancelButtonProps={{ style: made ? { display: 'none' } : undefined }}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onCancel={close}
      onOk={() => (made ? close() : form.submit())}
      destroyOnHidden
      okButtonProps={{ id: 'share-ok' }}
    >
      {made ? (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="share-made">
          <Alert type="success" showIcon message={t('share.dialog.made')} description={t('share.dialog.once')} />
          <Typography.Text strong>{t('share.dialog.link')}</Typography.Text>
          <Typography.Paragraph copyable={{ text: shareLink(made.token) }} style={{ wordBreak: 'break-all' }} data-testid="share-link">
            {shareLink(made.token)}
          </Typography.Paragraph>
          {made.code && (
            <>
              <Typography.Text strong>{t('share.dialog.code')}</Typography.Text>
              <Typography.Paragraph copyable code style={{ fontSize: 18 }} data-testid="share-code">
                {made.code}
              </Typography.Paragraph>
            </>
          )}
        </Space>
      ) : (
        <Form<Values> form={form} layout="vertical" onFinish={submit} initialValues={{ secret: true, expiry_days: 7, parts: ['report'], deidentify: true }}>
          <Form.Item name="secret" label={t('share.dialog.access')}>
            <Radio.Group data-testid="share-access">
              <Radio value={false}>{t('share.public')}</Radio>
              <Radio value={true}>{t('share.secret')}</Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item name="expiry_days" label={t('share.dialog.expiry')}>
            <Radio.Group optionType="button" data-testid="share-expiry">
              {[1, 7, 30, 0].map((d) => (
                <Radio.Button key={d} value={d}>{d ? t(`share.expiry.${d}`) : t('share.permanent')}</Radio.Button>
              ))}
            </Radio.Group>
          </Form.Item>
          <Form.Item name="parts" label={t('share.dialog.parts')} extra={t('share.dialog.slidesAlways')}>
            <Checkbox.Group
              options={[
                { value: 'report', label: t('share.part.report') },
                { value: 'attachments', label: t('share.part.attachments') },
                { value: 'clinical', label: t('share.part.clinical') },
                { value: 'annotations', label: t('share.part.annotations') },
              ]}
            />
          </Form.Item>
          <Form.Item name="deidentify" label={t('share.dialog.deidentify')} valuePropName="checked" extra={t('share.dialog.deidentifyHelp')}>
            <Switch data-testid="share-deidentify" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
