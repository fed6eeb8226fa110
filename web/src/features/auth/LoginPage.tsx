import { useEffect, useState } from 'react';
import { Button, Checkbox, Flex, Form, Grid, Input, Tooltip, Typography } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useConfig } from '../../lib/appData';
import { session, useSession } from '../../lib/session';
import { LanguageSwitch } from '../../components/ui/LanguageSwitch';
import { useApiError } from '../../components/ui/useApiError';
import { ApiError } from '../../lib/api/errors';
import { useCaptcha, useLogin, type LoginValues } from './api';
import { LoginArt } from './LoginArt';

/** Only same-site paths are accepted as a redirect target. */
export function safeRedirect(raw: string | null): string {
  return raw && raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/login') ? raw : '/manage';
}

export default function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { token } = useSession();
  const { data: config, isError: configFailed } = useConfig();
  // The server asks for a captcha after many wrong passwords for an account, even when it is off.
  const [captchaDemanded, setCaptchaDemanded] = useState(false);
  // Decide on the captcha once the config is known (assume on if it cannot be loaded).
  const captchaOn = (config ? config.captcha_enable !== false : configFailed) || captchaDemanded;
  const captcha = useCaptcha(captchaOn, captchaDemanded);
  const showCaptcha = captchaOn && captcha.data?.enabled !== false;
  const login = useLogin();
  const showError = useApiError();
  const [form] = Form.useForm<LoginValues>();
  const screens = Grid.useBreakpoint();
  const target = safeRedirect(params.get('redirect'));
  const title = config?.page_title || t('app.title');

  useEffect(() => {
    form.setFieldsValue({ remember: true });
  }, [form]);

  if (token && !login.isPending) return <Navigate to={target} replace />;

  const onFinish = (values: LoginValues) => {
    login.mutate(
      { values, captchaKey: captcha.data?.key ?? '' },
      {
        onSuccess: (res) => {
          qc.removeQueries({ queryKey: ['auth'] });
          session.signIn(res.token, res.user.id, values.remember);
          navigate(target, { replace: true });
        },
        onError: (err) => {
          showError(err, form);
          if (!showCaptcha && err instanceof ApiError && err.fieldErrors.captcha_code) setCaptchaDemanded(true);
          form.setFieldValue('captcha_code', '');
          if (showCaptcha) void captcha.refetch();
        },
      },
    );
  };

  return (
    <Flex style={{ minHeight: '100vh' }}>
      {screens.lg !== false && <LoginArt title={title} />}
      <Flex vertical style={{ flex: 1, minWidth: 360, background: '#fff', padding: '24px 40px' }}>
        <Flex justify="flex-end">
          <LanguageSwitch />
        </Flex>
        <Flex vertical justify="center" style={{ flex: 1, maxWidth: 380, width: '100%', margin: '0 auto' }}>
          {config?.login_logo && (
            <img src={config.login_logo} alt={title} data-testid="login-logo" style={{ maxWidth: 240, maxHeight: 64, objectFit: 'contain', alignSelf: 'flex-start', marginBottom: 20 }} />
          )}
          {screens.lg === false && (
            <Typography.Title level={4} style={{ color: '#1f6fc5' }}>
              {title}
            </Typography.Title>
          )}
          <Typography.Title level={3} style={{ marginBottom: 4 }}>
            {t('login.title')}
          </Typography.Title>
          <Typography.Text type="secondary" style={{ marginBottom: 28 }}>
            {t('login.subtitle')}
          </Typography.Text>
          <Form form={form} layout="vertical" size="large" onFinish={onFinish} requiredMark={false} aria-label={t('login.title')}>
            <Form.Item name="username" label={t('login.username')} rules={[{ required: true, message: t('login.usernameRequired') }]}>
              <Input prefix={<UserOutlined />} autoFocus autoComplete="username" placeholder={t('login.usernamePlaceholder')} />
            </Form.Item>
            <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('login.passwordRequired') }]}>
              <Input.Password prefix={<LockOutlined />} autoComplete="current-password" placeholder={t('login.passwordPlaceholder')} />
            </Form.Item>
            {showCaptcha && (
              <Form.Item label={t('login.captcha')} required>
                <Flex gap={12}>
                  <Form.Item name="captcha_code" noStyle rules={[{ required: true, message: t('login.captchaRequired') }]}>
                    <Input prefix={<SafetyOutlined />} autoComplete="off" placeholder={t('login.captchaPlaceholder')} aria-label={t('login.captcha')} />
                  </Form.Item>
                  <Tooltip title={t('login.captchaRefresh')}>
                    <button type="button" onClick={() => void captcha.refetch()} data-testid="captcha-image" aria-label={t('login.captchaRefresh')} style={{ border: '1px solid #d9d9d9', borderRadius: 6, padding: 0, width: 130, height: 40, flex: 'none', background: '#f5f8fc', cursor: 'pointer', overflow: 'hidden' }}>
                      {captcha.data?.image && <img src={captcha.data.image} alt={t('login.captcha')} style={{ width: '100%', height: '100%', objectFit: 'cover' }} />}
                    </button>
                  </Tooltip>
                </Flex>
              </Form.Item>
            )}
            <Form.Item name="remember" valuePropName="checked">
              <Checkbox>{t('login.remember')}</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
              {t('login.submit')}
            </Button>
          </Form>
        </Flex>
      </Flex>
    </Flex>
  );
}
