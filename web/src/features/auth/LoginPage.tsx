import { useState, type ReactNode } from 'react';
import { Button, Checkbox, Flex, Grid, message, theme } from 'antd';
// The input alone: antd's Input module brings TextArea, OTP and Search along.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useConfig } from '../../lib/appData';
import { session, useSession } from '../../lib/session';
import { warmUp } from '../../lib/warmUp';
import { LanguageSwitch } from '../../components/ui/LanguageSwitch';
import { ApiError } from '../../lib/api/errors';
import { useCaptcha, useLogin, type LoginValues } from './api';
import { Heading, LoginArt } from './LoginArt';

/** Only same-site paths are accepted as a redirect target. */
export function safeRedirect(raw: string | null): string {
  return raw && raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/login') ? raw : '/manage';
}

type FieldName = 'username' | 'password' | 'captcha_code';
type Errors = Partial<Record<FieldName, string>>;

/** A labelled field in antd's vertical form look, its error read out with it. */
function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: token.marginLG }}>
      <label htmlFor={id} style={{ display: 'block', paddingBottom: token.paddingXS, color: token.colorTextHeading }}>
        {label}
      </label>
      {children}
      {error && (
        <div id={`${id}-error`} role="alert" style={{ color: token.colorError, marginTop: token.marginXXS }}>
          {error}
        </div>
      )}
    </div>
  );
}

/**
 * The sign-in page. Its form is a plain one rather than antd's Form: that and its validator
 * and tooltip are about 45 KB of script, and /login is the page every user waits for first.
 */
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
  // antd's App (and its message holder) lives past sign-in (app/AppLayer): this page has its own.
  const [messageApi, messages] = message.useMessage();
  const screens = Grid.useBreakpoint();
  const { token: look } = theme.useToken();
  const [values, setValues] = useState<LoginValues>({ username: '', password: '', captcha_code: '', remember: true });
  const [errors, setErrors] = useState<Errors>({});
  const [tried, setTried] = useState(false);
  const target = safeRedirect(params.get('redirect'));
  const title = config?.page_title || t('app.title');

  if (token && !login.isPending) return <Navigate to={target} replace />;

  const required: Record<FieldName, string> = { username: t('login.usernameRequired'), password: t('login.passwordRequired'), captcha_code: t('login.captchaRequired') };
  const check = (v: LoginValues): Errors => {
    const out: Errors = {};
    for (const name of ['username', 'password', 'captcha_code'] as const) {
      if (name === 'captcha_code' && !showCaptcha) continue;
      if (!v[name]?.trim()) out[name] = required[name];
    }
    return out;
  };
  const set = (name: FieldName, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    // Like antd's Form: once a field was checked, it is checked again as it is typed in.
    setErrors((e) => ({ ...e, [name]: tried || e[name] ? check(next)[name] : undefined }));
  };
  const input = (name: FieldName) => ({
    id: `login-${name}`,
    value: values[name] ?? '',
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(name, e.target.value),
    status: errors[name] ? ('error' as const) : undefined,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `login-${name}-error` : undefined,
  });

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    setTried(true);
    const found = check(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    warmUp(target);
    login.mutate(
      { values, captchaKey: captcha.data?.key ?? '' },
      {
        onSuccess: (res) => {
          qc.removeQueries({ queryKey: ['auth'] });
          session.signIn(res.token, res.user.id, values.remember);
          navigate(target, { replace: true });
        },
        onError: (err) => {
          void messageApi.error(err instanceof Error ? err.message : String(err));
          const fields = err instanceof ApiError ? err.fieldErrors : {};
          setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0]])));
          if (!showCaptcha && fields.captcha_code) setCaptchaDemanded(true);
          setValues((v) => ({ ...v, captcha_code: '' }));
          if (showCaptcha) void captcha.refetch();
        },
      },
    );
  };

  return (
    // The page's own texts in the theme's font (antd's App, which sets it past sign-in, is not here).
    <Flex style={{ minHeight: '100vh', fontFamily: look.fontFamily, color: look.colorText }}>
      {messages}
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
            <Heading level={4} style={{ color: '#1f6fc5' }}>
              {title}
            </Heading>
          )}
          <Heading level={3} style={{ marginBottom: 4 }}>
            {t('login.title')}
          </Heading>
          <span style={{ marginBottom: 28, color: look.colorTextSecondary }}>{t('login.subtitle')}</span>
          <form onSubmit={onSubmit} noValidate aria-label={t('login.title')}>
            <Field id="login-username" label={t('login.username')} error={errors.username}>
              <Input {...input('username')} size="large" prefix={<UserOutlined />} autoFocus autoComplete="username" placeholder={t('login.usernamePlaceholder')} />
            </Field>
            <Field id="login-password" label={t('login.password')} error={errors.password}>
              <Password {...input('password')} size="large" prefix={<LockOutlined />} autoComplete="current-password" placeholder={t('login.passwordPlaceholder')} />
            </Field>
            {showCaptcha && (
              <Field id="login-captcha_code" label={t('login.captcha')} error={errors.captcha_code}>
                <Flex gap={12}>
                  <Input {...input('captcha_code')} size="large" prefix={<SafetyOutlined />} autoComplete="off" placeholder={t('login.captchaPlaceholder')} aria-label={t('login.captcha')} />
                  <button type="button" onClick={() => void captcha.refetch()} data-testid="captcha-image" aria-label={t('login.captchaRefresh')} title={t('login.captchaRefresh')} style={{ border: '1px solid #d9d9d9', borderRadius: 6, padding: 0, width: 130, height: 40, flex: 'none', background: '#f5f8fc', cursor: 'pointer', overflow: 'hidden' }}>
                    {captcha.data?.image && <img src={captcha.data.image} alt={t('login.captcha')} style={{ width: '100%', height: '100%', objectFit: 'cover' }} />}
                  </button>
                </Flex>
              </Field>
            )}
            <div style={{ marginBottom: look.marginLG }}>
              <Checkbox checked={values.remember} onChange={(e) => setValues((v) => ({ ...v, remember: e.target.checked }))}>
                {t('login.remember')}
              </Checkbox>
            </div>
            <Button type="primary" htmlType="submit" size="large" block loading={login.isPending} data-testid="login-submit">
              {t('login.submit')}
            </Button>
          </form>
        </Flex>
      </Flex>
    </Flex>
  );
}
