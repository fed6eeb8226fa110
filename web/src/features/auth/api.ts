import { useCallback, useEffect, useState } from 'react';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { encryptForServer } from '../../lib/passwordCipher';

// The sign-in page's requests, without the query cache (lib/queryClient comes past sign-in).

type Captcha = Awaited<ReturnType<typeof fetchCaptcha>>;
const fetchCaptcha = async (required: boolean) =>
  unwrap(await api.GET('/api/common/captcha', { params: { query: required ? { required: true } : {} } }));

/** A captcha challenge when enabled; required asks for one even when the captcha is off (the sign-in demanded it). */
export function useCaptcha(enabled: boolean, required = false): { data?: Captcha; refetch: () => void } {
  const [data, setData] = useState<Captcha>();
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    fetchCaptcha(required).then(
      (c) => live && setData(c),
      () => live && setData(undefined),
    );
    return () => {
      live = false;
    };
  }, [enabled, required, round]);
  const refetch = useCallback(() => setRound((r) => r + 1), []);
  return { data, refetch };
}

export interface LoginValues {
  username: string;
  password: string;
  captcha_code?: string;
  remember: boolean;
}

/** Signs in; sent runs once the request is on its way (fetch is called after the client's middleware). */
export async function signIn(values: LoginValues, captchaKey: string, sent?: () => void) {
  const answer = api.POST('/api/auth/login', {
    body: {
      username: values.username.trim(),
      password: await encryptForServer(values.password),
      captcha_key: captchaKey,
      captcha_code: values.captcha_code?.trim() ?? '',
    },
  });
  if (sent) setTimeout(sent);
  return unwrap(await answer);
}
