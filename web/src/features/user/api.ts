import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { UserInput } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';
import { encryptForServer } from '../../lib/passwordCipher';

export const userKeys = { all: ['user'] as const, one: (id: number) => ['user', 'one', id] as const };

export const fetchUsers = async (query: ApiListQuery) => listResult(await api.GET('/api/user', { params: { query } }));
export const fetchAdministrators = async (query: ApiListQuery) => listResult(await api.GET('/api/admin/manage', { params: { query } }));
export const countAdministrators = async (query: CountQuery) => unwrap(await api.GET('/api/admin/manage/count', { params: { query } }));
export const countUsers = async (query: CountQuery) => unwrap(await api.GET('/api/user/count', { params: { query } }));

export function useUser(id: number | null) {
  return useQuery({
    queryKey: userKeys.one(id ?? 0),
    queryFn: async () => unwrap(await api.GET('/api/user/{id}', { params: { path: { id: id! } } })),
    enabled: id !== null,
  });
}

/** Every write refreshes the user list and its tab counts. */
function useUserMutation<V>(fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: userKeys.all }) });
}

export type UserFormValues = Omit<UserInput, 'password'> & { password?: string };

export function useSaveUser(id: number | null) {
  return useUserMutation(async (v: UserFormValues) => {
    const { password, ...rest } = v;
    const body: UserInput = { ...rest, ...(password ? { password: await encryptForServer(password) } : {}) } as UserInput;
    return id === null
      ? unwrap(await api.POST('/api/user', { body }))
      : unwrap(await api.POST('/api/user/{id}', { params: { path: { id } }, body }));
  });
}

export const useDeleteUser = () => useUserMutation(async (id: number) => unwrap(await api.DELETE('/api/user/{id}', { params: { path: { id } } })));

export const useSetUserStatus = () =>
  useUserMutation(async ({ id, status }: { id: number; status: 0 | 1 }) =>
    unwrap(await api.POST('/api/user/status/{id}', { params: { path: { id } }, body: { status } })),
  );

export const useUnlockUser = () => useUserMutation(async (id: number) => unwrap(await api.POST('/api/user/delLoginLock/{id}', { params: { path: { id } } })));

export const useResetPassword = () =>
  useUserMutation(async ({ id, password }: { id: number; password: string }) =>
    unwrap(await api.POST('/api/user/reset_password/{id}', { params: { path: { id } }, body: { password: await encryptForServer(password) } })),
  );

type LibraryNode = { id: number; name: string; status: number; children?: LibraryNode[] | null };
export interface LibraryOption {
  value: number;
  title: string;
  children?: LibraryOption[];
}
const libraryTree = (libs: LibraryNode[] | null | undefined): LibraryOption[] =>
  (libs ?? []).map((l) => ({ value: l.id, title: l.name, children: l.children?.length ? libraryTree(l.children) : undefined }));

/** The pathology libraries with their sub-libraries: an expert's subspecialties. */
export function useLibraryTree(enabled: boolean) {
  return useQuery({
    queryKey: ['library', 'tree', 'all'],
    queryFn: async () => libraryTree(listResult(await api.GET('/api/config/library', { params: { query: { page: 1, page_size: 1000, tree: true } } })).rows),
    enabled,
    staleTime: 5 * 60_000,
  });
}
