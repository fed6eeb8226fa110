import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { encryptForServer } from '../../lib/passwordCipher';

/** A captcha challenge when enabled; required asks for one even when the captcha is off (the sign-in demanded it). */
export function useCaptcha(enabled: boolean, required = false) {
  return useQuery({
    queryKey: ['captcha', required],
    queryFn: async () => unwrap(await api.GET('/api/common/captcha', { params: { query: required ? { required: true } : {} } })),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
  });
}

export interface LoginValues {
  username: string;
  password: string;
  captcha_code?: string;
  remember: boolean;
}

export function useLogin() {
  return useMutation({
    mutationFn: async ({ values, captchaKey }: { values: LoginValues; captchaKey: string }) =>
      unwrap(
        await api.POST('/api/auth/login', {
          body: {
            username: values.username.trim(),
            password: await encryptForServer(values.password),
            captcha_key: captchaKey,
            captcha_code: values.captcha_code?.trim() ?? '',
          },
        }),
      ),
  });
}
