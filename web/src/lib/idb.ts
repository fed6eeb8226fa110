// The browser database `rc` v1 (spec 1 §9) with a memory fallback when IndexedDB is missing.
import { openDB, type IDBPDatabase } from 'idb';

export const STORES = ['search', 'table_menu', 'local_cache', 'error_info', 'report-template', 'list_search_cache'] as const;
export type StoreName = (typeof STORES)[number];

let dbPromise: Promise<IDBPDatabase | null> | null = null;
const memory = new Map<string, unknown>();

function db(): Promise<IDBPDatabase | null> {
  if (!dbPromise) {
    dbPromise =
      typeof indexedDB === 'undefined'
        ? Promise.resolve(null)
        : openDB('rc', 1, {
            upgrade(d) {
              for (const s of STORES) if (!d.objectStoreNames.contains(s)) d.createObjectStore(s);
            },
          }).catch(() => null);
  }
  return dbPromise;
}

export async function idbGet<T>(store: StoreName, key: string): Promise<T | undefined> {
  const d = await db();
  if (!d) return memory.get(`${store}:${key}`) as T | undefined;
  try {
    return (await d.get(store, key)) as T | undefined;
  } catch {
    return memory.get(`${store}:${key}`) as T | undefined;
  }
}

export async function idbSet<T>(store: StoreName, key: string, value: T): Promise<void> {
  memory.set(`${store}:${key}`, value);
  const d = await db();
  if (!d) return;
  try {
    await d.put(store, value, key);
  } catch {
    /* memory copy kept */
  }
}
