import { App, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { confirmRule, PasswordHint, passwordRules } from '../../components/ui/PasswordHint';
import { useApiError } from '../../components/ui/useApiError';
import { useChangePassword } from './api';

interface Values {
  old_password: string;
  new_password: string;
  confirm: string;
}

/** The caller's own password change; onChanged runs after the server accepted it. */
export function ChangePasswordForm({ onChanged }: { onChanged?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const change = useChangePassword();
  const showError = useApiError();
  const finish = ({ old_password, new_password }: Values) =>
    change.mutate(
      { old_password, new_password },
      {
        onSuccess: () => {
          form.resetFields();
          void message.success(t('account.passwordChanged'));
          onChanged?.();
        },
        onError: (e) => showError(e, form),
      },
    );
  return (
    <Form form={form} name="change-password" layout="vertical" onFinish={finish} style={{ maxWidth: 420 }} aria-label={t('account.changePassword')} data-testid="change-password-form">
      <Form.Item name="old_password" label={t('password.old')} rules={[{ required: true, message: t('password.required') }]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="new_password" label={t('password.new')} rules={passwordRules(t)} extra={<PasswordHint />}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="confirm" label={t('password.confirm')} dependencies={['new_password']} rules={[{ required: true, message: t('password.required') }, confirmRule(t, 'new_password')]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="change-password-submit">
        {t('account.changePassword')}
      </Button>
    </Form>
  );
}
