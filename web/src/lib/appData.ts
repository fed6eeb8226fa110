// Queries shared by several features: system config, the signed-in user, menus and roles.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from './api/client';
import { unwrap } from './api/errors';
import { useSession } from './session';
import { fetchSiteConfig, lastSiteConfig } from './siteConfig';

export const appKeys = {
  config: ['config'] as const,
  info: ['auth', 'info'] as const,
  menu: ['auth', 'menu'] as const,
  roles: ['roles'] as const,
};

export function useConfig() {
  return useQuery({
    queryKey: appKeys.config,
    queryFn: fetchSiteConfig,
    initialData: lastSiteConfig,
    staleTime: Infinity,
    retry: 1,
  });
}

export function useAuthInfo() {
  const { token, locked } = useSession();
  return useQuery({
    queryKey: appKeys.info,
    queryFn: async () => unwrap(await api.GET('/api/auth/info')),
    // A locked session answers only the unlock call (423 elsewhere).
    enabled: !!token && !locked,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export const menuQuery = {
  queryKey: appKeys.menu,
  queryFn: async () => unwrap(await api.GET('/api/menu')),
  staleTime: Infinity,
};

export function useMenu() {
  const { token } = useSession();
  return useQuery({ ...menuQuery, enabled: !!token });
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

/** Localized role label; unknown roles show their key. */
export function useRoleLabel(): (role: string) => string {
  const { t } = useTranslation();
  return (role) => t(`role.${role}`, { defaultValue: role });
}
