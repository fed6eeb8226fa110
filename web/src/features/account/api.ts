import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { encryptForServer } from '../../lib/passwordCipher';

export function useChangePassword() {
  return useMutation({
    mutationFn: async (v: { old_password: string; new_password: string }) =>
      unwrap(
        await api.POST('/api/user/password', {
          body: { old_password: await encryptForServer(v.old_password), new_password: await encryptForServer(v.new_password) },
        }),
      ),
  });
}
