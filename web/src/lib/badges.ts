import { createContext, useContext } from 'react';

/** Badge counts by menu `count` key; a live-events provider can fill this in later. */
export const BadgeCountContext = createContext<Record<string, number>>({});

export function useBadgeCount(key: string | undefined): number | undefined {
  const counts = useContext(BadgeCountContext);
  return key ? counts[key] : undefined;
}
