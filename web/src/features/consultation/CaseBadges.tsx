// Menu badge counts for the case screens: the menu's `count` keys are case-list
// tabs (e.g. "unsubmitted", "recall_pending"), counted by GET /consultation/count.
import { useMemo } from 'react';
import { Outlet } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BadgeCountContext } from '../../lib/badges';
import { useMenu } from '../../lib/appData';
import type { MenuEntry } from '../../lib/api/types';
import { caseKeys, countCases } from '../../entities/case/api';

function countKeys(menus: readonly MenuEntry[], out = new Set<string>()): Set<string> {
  for (const m of menus) {
    if (m.count) out.add(m.count);
    countKeys(m.children ?? [], out);
  }
  return out;
}

/** Provides badge counts to the shell below it; refreshed after any case write and when the live stream says cases changed. */
export function CaseBadgeProvider() {
  const menus = useMenu().data;
  const keys = useMemo(() => countKeys(menus ?? []), [menus]);
  const counts = useQuery({
    queryKey: caseKeys.badges,
    queryFn: () => countCases({}),
    enabled: keys.size > 0,
    staleTime: 30_000,
  });
  const value = useMemo(() => counts.data ?? {}, [counts.data]);
  return (
    <BadgeCountContext.Provider value={value}>
      <Outlet />
    </BadgeCountContext.Provider>
  );
}
