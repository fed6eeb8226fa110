import { useEffect, useMemo, useState } from 'react';
import { idbGet, idbSet } from '../../../lib/idb';
import { useSession } from '../../../lib/session';
import type { ListColumn } from './types';

export interface ColumnSetting {
  key: string;
  show: boolean;
}

/** Declared columns merged with the stored order/visibility: new ones appended, gone ones dropped. */
export function mergeSettings(declared: { key: string; defaultHidden?: boolean }[], stored: ColumnSetting[] | undefined): ColumnSetting[] {
  const keys = new Set(declared.map((c) => c.key));
  const kept = (stored ?? []).filter((s) => keys.has(s.key));
  const seen = new Set(kept.map((s) => s.key));
  return [...kept, ...declared.filter((c) => !seen.has(c.key)).map((c) => ({ key: c.key, show: !c.defaultHidden }))];
}

/** Column order and visibility remembered per user and table in IndexedDB (`rc`.table_menu). */
export function useColumnSettings<T>(tableId: string, columns: ListColumn<T>[]) {
  const { userId } = useSession();
  const storeKey = `${userId ?? 0}:${tableId}`;
  const [stored, setStored] = useState<ColumnSetting[] | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void idbGet<ColumnSetting[]>('table_menu', storeKey).then((v) => live && setStored(v));
    return () => {
      live = false;
    };
  }, [storeKey]);
  const settings = useMemo(() => mergeSettings(columns, stored), [columns, stored]);
  const save = (next: ColumnSetting[]) => {
    setStored(next);
    void idbSet('table_menu', storeKey, next);
  };
  const visible = useMemo(() => {
    const byKey = new Map(columns.map((c) => [c.key, c]));
    return settings.filter((s) => s.show).map((s) => byKey.get(s.key)!);
  }, [settings, columns]);
  return { settings, visible, save, reset: () => save(mergeSettings(columns, undefined)) };
}
