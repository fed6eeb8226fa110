import type { MenuEntry } from './api/types';

/** The landing page: the first shown leaf of the first menu (spec 1 §2). */
export function firstLeaf(menus: readonly MenuEntry[] | null): string | null {
  if (!menus) return null;
  for (const m of menus) {
    if (m.is_show === '0') continue;
    const kids = (m.children ?? []).filter((c) => c.is_show !== '0');
    if (kids.length) {
      const leaf = firstLeaf(kids);
      if (leaf) return leaf;
    } else if (m.uri) return m.uri;
  }
  return null;
}

/** The chain of menu entries leading to `path` (for breadcrumbs and the open group). */
export function menuTrail(menus: readonly MenuEntry[] | null, path: string): MenuEntry[] {
  if (!menus) return [];
  for (const m of menus) {
    if (m.uri && (m.uri === path || m.active_menu === path)) return [m];
    const sub = menuTrail(m.children ?? [], path);
    if (sub.length) return [m, ...sub];
  }
  return [];
}

/** A route pattern for titles: numeric segments become `:id` (/diagnosis/item/12 → /diagnosis/item/:id). */
export function routePattern(path: string): string {
  return path.replace(/\/\d+(?=\/|$)/g, '/:id');
}
