// Queries shared by several features: system config, the signed-in user, menus and roles.
import { useQuery } from '@tanstack/react-query';
import { api } from './api/client';
import { unwrap } from './api/errors';
import { useSession } from './session';
import { useLanguage } from './prefs';

export const appKeys = {
  config: ['config'] as const,
  info: ['auth', 'info'] as const,
  menu: ['auth', 'menu'] as const,
  roles: ['roles'] as const,
};

export function useConfig() {
  return useQuery({
    queryKey: appKeys.config,
    queryFn: async () => unwrap(await api.GET('/api/config/setting')),
    staleTime: Infinity,
    retry: 1,
  });
}

export function useAuthInfo() {
  const { token } = useSession();
  return useQuery({
    queryKey: appKeys.info,
    queryFn: async () => unwrap(await api.GET('/api/auth/info')),
    enabled: !!token,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useMenu() {
  const { token } = useSession();
  return useQuery({
    queryKey: appKeys.menu,
    queryFn: async () => unwrap(await api.GET('/api/menu')),
    enabled: !!token,
    staleTime: Infinity,
  });
}

export function useRoles() {
  const { token } = useSession();
  return useQuery({
    queryKey: appKeys.roles,
    queryFn: async () => unwrap(await api.GET('/api/role')),
    enabled: !!token,
    staleTime: Infinity,
  });
}

/** Localized role label from the role list (falls back to the role key). */
export function useRoleLabel(): (role: string) => string {
  const { data } = useRoles();
  const lang = useLanguage();
  return (role) => {
    const def = data?.find((r) => r.role === role);
    if (!def) return role;
    return lang === 'en-US' ? def.en_name || def.name : def.name;
  };
}
