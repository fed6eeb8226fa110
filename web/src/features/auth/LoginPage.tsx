import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { Navigate, useNavigate } from 'react-router';
import { useSearchParams } from '../../lib/searchParams';
import { useSiteConfig, useSiteHead } from '../../lib/siteConfig';
import { session, useSession } from '../../lib/session';
import { useSignInTexts } from '../../lib/signInTexts';
import { useFontSize } from '../../lib/prefs';
import { warmUp } from '../../lib/warmUp';
import { preparePasswordCipher } from '../../lib/passwordCipher';
import { LanguageSwitch } from '../../components/ui/LanguageSwitch';
import { ApiError } from '../../lib/api/errors';
import { signIn, useCaptcha, type LoginValues } from './api';
import { Heading, LoginArt } from './LoginArt';
import { Checkbox, Field, PasswordInput, SubmitButton, TextInput } from './LoginFields';

/** Only same-site paths are accepted as a redirect target. */
export function safeRedirect(raw: string | null): string {
  return raw && raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/login') ? raw : '/manage';
}

type FieldName = 'username' | 'password' | 'captcha_code';
type Errors = Partial<Record<FieldName, string>>;

// antd's lg breakpoint: the art panel shows from 992 px.
const wide = '(min-width: 992px)';
const onResize = (l: () => void) => {
  const m = window.matchMedia?.(wide);
  m?.addEventListener('change', l);
  return () => m?.removeEventListener('change', l);
};
// antd's message, loaded with the first error.
const SignInToast = lazy(() => import('./SignInToast'));

const useWide = () => useSyncExternalStore(onResize, () => window.matchMedia?.(wide).matches ?? true);

/**
 * The sign-in page: plain HTML in antd's look (LoginFields, login.css) with its own few texts,
 * so /login loads neither antd nor i18next nor the query cache; every user waits for it first.
 */
export default function LoginPage() {
  const t = useSignInTexts();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { token } = useSession();
  const { data: config, failed: configFailed } = useSiteConfig();
  useSiteHead(config);
  // The password is encrypted with the server's key: fetched now, the sign-in sends one request.
  useEffect(() => {
    if (!token) preparePasswordCipher();
  }, [token]);
  // The server asks for a captcha after many wrong passwords for an account, even when it is off.
  const [captchaDemanded, setCaptchaDemanded] = useState(false);
  // Decide on the captcha once the config is known (assume on if it cannot be loaded).
  const captchaOn = (config ? config.captcha_enable !== false : configFailed) || captchaDemanded;
  const captcha = useCaptcha(captchaOn, captchaDemanded);
  const showCaptcha = captchaOn && captcha.data?.enabled !== false;
  const [busy, setBusy] = useState(false);
  const isWide = useWide();
  const fontSize = useFontSize();
  const [values, setValues] = useState<LoginValues>({ username: '', password: '', captcha_code: '', remember: true });
  const [errors, setErrors] = useState<Errors>({});
  const [tried, setTried] = useState(false);
  const [toast, setToast] = useState<{ text: string; n: number }>();
  const target = safeRedirect(params.get('redirect'));
  const title = config?.page_title || t('app.title');

  if (token && !busy) return <Navigate to={target} replace />;

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
    invalid: !!errors[name],
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `login-${name}-error` : undefined,
  });

  const failed = (err: unknown) => {
    setToast((old) => ({ text: err instanceof Error ? err.message : String(err), n: (old?.n ?? 0) + 1 }));
    const fields = err instanceof ApiError ? err.fieldErrors : {};
    setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0]])));
    if (!showCaptcha && fields.captcha_code) setCaptchaDemanded(true);
    setValues((v) => ({ ...v, captcha_code: '' }));
    if (showCaptcha) captcha.refetch();
  };
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setTried(true);
    const found = check(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      // The next screen's scripts start loading once the sign-in request is out: the browser opens
      // six connections to the server, and the scripts (a hundred files) asked for first would
      // keep the request waiting behind them.
      const res = await signIn(values, captcha.data?.key ?? '', () => warmUp(target));
      session.signIn(res.token, res.user.id, values.remember);
      navigate(target, { replace: true });
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="tp-login" style={{ ['--tp-fs' as string]: `${fontSize}px` }}>
      {toast && (
        <Suspense>
          <SignInToast {...toast} />
        </Suspense>
      )}
      {isWide && <LoginArt title={title} />}
      <div style={{ flex: 1, minWidth: 360, background: '#fff', padding: '24px 40px', display: 'flex', flexDirection: 'column' }}>
        <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <LanguageSwitch />
        </div>
        <div style={{ flex: 1, maxWidth: 380, width: '100%', margin: '0 auto', display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
          {config?.login_logo && (
            <img src={config.login_logo} alt={title} data-testid="login-logo" style={{ maxWidth: 240, maxHeight: 64, objectFit: 'contain', alignSelf: 'flex-start', marginBottom: 20 }} />
          )}
          {!isWide && (
            <Heading level={4} style={{ color: '#1f6fc5' }}>
              {title}
            </Heading>
          )}
          <Heading level={3} style={{ marginBottom: 4 }}>
            {t('login.title')}
          </Heading>
          <span style={{ marginBottom: 28, color: 'rgba(0, 0, 0, 0.62)' }}>{t('login.subtitle')}</span>
          <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={t('login.title')}>
            <Field id="login-username" label={t('login.username')} error={errors.username}>
              <TextInput {...input('username')} icon={UserOutlined} autoFocus autoComplete="username" placeholder={t('login.usernamePlaceholder')} />
            </Field>
            <Field id="login-password" label={t('login.password')} error={errors.password}>
              <PasswordInput {...input('password')} icon={LockOutlined} autoComplete="current-password" placeholder={t('login.passwordPlaceholder')} />
            </Field>
            {showCaptcha && (
              <Field id="login-captcha_code" label={t('login.captcha')} error={errors.captcha_code}>
                <div style={{ display: 'flex', gap: 12 }}>
                  <TextInput {...input('captcha_code')} icon={SafetyOutlined} autoComplete="off" placeholder={t('login.captchaPlaceholder')} aria-label={t('login.captcha')} />
                  <button type="button" onClick={captcha.refetch} data-testid="captcha-image" aria-label={t('login.captchaRefresh')} title={t('login.captchaRefresh')} style={{ border: '1px solid #d9d9d9', borderRadius: 6, padding: 0, width: 130, height: 40, flex: 'none', background: '#f5f8fc', cursor: 'pointer', overflow: 'hidden' }}>
                    {captcha.data?.image && <img src={captcha.data.image} alt={t('login.captcha')} style={{ width: '100%', height: '100%', objectFit: 'cover' }} />}
                  </button>
                </div>
              </Field>
            )}
            <div style={{ marginBottom: 24 }}>
              <Checkbox checked={values.remember} onChange={(remember) => setValues((v) => ({ ...v, remember }))}>
                {t('login.remember')}
              </Checkbox>
            </div>
            <SubmitButton busy={busy} label={t('login.submit')} />
          </form>
        </div>
      </div>
    </div>
  );
}
