// Per-role configuration (spec 2 §6): the expert's subspecialties (library
// ids) and whether they take new cases, the allocator's centers, the site's
// hospital. The server checks it; the form keeps only what still fits the
// user's centers and hospitals.
import type { components } from '../../lib/api/schema';

export type RoleConfig = components['schemas']['RoleConfig'];

/** The roles that carry a configuration, in the order the form shows them. */
export const CONFIGURED_ROLES = ['expert', 'allocator', 'site'] as const;
export type ConfiguredRole = (typeof CONFIGURED_ROLES)[number];

export interface RoleConfigValues {
  expert?: { subspecialties?: number[]; takes_cases?: boolean };
  allocator?: { center_ids?: number[] };
  site?: { site_id?: number | null };
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);

/** Form values from a user's stored configurations (takes_cases defaults to on). */
export function configsFromRecord(raw: Record<string, unknown> | undefined): RoleConfigValues {
  const of = (r: string) => (raw?.[r] && typeof raw[r] === 'object' ? (raw[r] as RoleConfig) : {});
  const e = of('expert');
  const s = of('site');
  return {
    expert: { subspecialties: ids(e.subspecialties), takes_cases: e.takes_cases !== false },
    allocator: { center_ids: ids(of('allocator').center_ids) },
    site: { site_id: typeof s.site_id === 'number' ? s.site_id : null },
  };
}

/** The body's role_configs for the granted roles; centers and hospitals the user no longer has are dropped. */
export function configsToBody(roles: string[], v: RoleConfigValues | undefined, centerIds: number[], hospitalIds: number[]): Record<string, RoleConfig> {
  const out: Record<string, RoleConfig> = {};
  if (roles.includes('expert')) out.expert = { subspecialties: v?.expert?.subspecialties ?? [], takes_cases: v?.expert?.takes_cases !== false };
  if (roles.includes('allocator')) out.allocator = { center_ids: (v?.allocator?.center_ids ?? []).filter((c) => centerIds.includes(c)) };
  if (roles.includes('site')) {
    const site = v?.site?.site_id;
    out.site = typeof site === 'number' && hospitalIds.includes(site) ? { site_id: site } : {};
  }
  return out;
}
