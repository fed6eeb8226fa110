import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { toApiError, unwrap } from '../../lib/api/errors';

const key = ['account', 'signature'] as const;

/** The signed-in expert's signature as an object URL, null when there is none. */
export function useSignature(enabled: boolean) {
  return useQuery({
    queryKey: key,
    enabled,
    queryFn: async () => {
      const res = await api.GET('/api/user/signature', { parseAs: 'blob' });
      if (res.response.status === 404) return null;
      if (res.error !== undefined || !res.data) throw toApiError(res.response.status, res.error, 'Request failed');
      return URL.createObjectURL(res.data as Blob);
    },
  });
}

export function useSetSignature() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const fd = new FormData();
      fd.append('file', file, file.name);
      return unwrap(await api.POST('/api/user/signature', { body: fd as never, bodySerializer: (b: unknown) => b as FormData }));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
}

export function useRemoveSignature() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/user/signature')),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
}
