// Menu badge counts of the diagnosis screens: an expert's "pending" and
// "invited" come from GET /diagnosis/list/statistical_count and are laid over
// the case-list counts provided above this element.
import { useContext, useMemo } from 'react';
import { Outlet } from 'react-router';
import { BadgeCountContext } from '../../lib/badges';
import { useAuthInfo } from '../../lib/appData';
import { useDashboardCounts } from './api';

export function DiagnosisBadgeProvider() {
  const parent = useContext(BadgeCountContext);
  const info = useAuthInfo();
  const expert = (info.data?.roles ?? []).some((r) => r.role === 'expert');
  const counts = useDashboardCounts(expert);
  const value = useMemo(() => (counts.data ? { ...parent, ...(counts.data as unknown as Record<string, number>) } : parent), [parent, counts.data]);
  return (
    <BadgeCountContext.Provider value={value}>
      <Outlet />
    </BadgeCountContext.Provider>
  );
}
