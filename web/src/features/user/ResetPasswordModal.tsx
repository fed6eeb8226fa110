import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { User } from '../../lib/api/types';
import { confirmRule, PasswordHint, passwordRules } from '../../components/ui/PasswordHint';
import { useApiError } from '../../components/ui/useApiError';
import { useResetPassword } from './api';

export function ResetPasswordModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const reset = useResetPassword();
  const showError = useApiError();
  const finish = (v: { password: string }) =>
    reset.mutate(
      { id: user!.id, password: v.password },
      {
        onSuccess: () => {
          void message.success(t('user.resetDone'));
          onClose();
        },
        onError: (e) => showError(e, form),
      },
    );
  return (
    <Modal
      open={!!user}
      title={t('user.resetPasswordFor', { name: user?.name || user?.username || '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={reset.isPending}
      destroyOnHidden
      data-testid="reset-password-modal"
    >
      <Form form={form} name="reset-password" layout="vertical" onFinish={finish} preserve={false}>
        <Form.Item name="password" label={t('password.new')} rules={passwordRules(t)} extra={<PasswordHint />}>
          <Input.Password autoFocus autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm" label={t('password.confirm')} dependencies={['password']} rules={[{ required: true, message: t('password.required') }, confirmRule(t, 'password')]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
