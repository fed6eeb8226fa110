import { useCallback, useEffect, useState } from 'react';
import { idbGet, idbSet } from '../../../lib/idb';
import { addToHistory, type HistoryEntry } from '../../../lib/list/history';
import { useSession } from '../../../lib/session';

/** Free-text search history per user and table (`rc`.search). */
export function useSearchHistory(tableId: string) {
  const { userId } = useSession();
  const key = `${userId ?? 0}:${tableId}`;
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  useEffect(() => {
    void idbGet<HistoryEntry[]>('search', key).then((v) => setHistory(v ?? []));
  }, [key]);
  const record = useCallback(
    (text: string) =>
      setHistory((prev) => {
        const next = addToHistory(prev, text);
        if (next !== prev) void idbSet('search', key, next);
        return next;
      }),
    [key],
  );
  return { history, record };
}
