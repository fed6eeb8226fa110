// Browser-side store of the slide features, in their own IndexedDB database
// (`telepath-annotations`; `rc` belongs to the app shell): screenshots per case
// until the report uses them. A memory copy stands in when IndexedDB is missing.
// Annotations are kept on the server (annotationSync.ts); the old `annotations`
// object store is no longer read or written.
import { openDB, type IDBPDatabase } from 'idb';

const DB = 'telepath-annotations';
type Store = 'annotations' | 'captures';

export interface Capture {
  url: string;
  slideId: number;
  filename: string;
  createdAt: string;
}

let dbPromise: Promise<IDBPDatabase | null> | null = null;
const memory = new Map<string, unknown>();

function db(): Promise<IDBPDatabase | null> {
  if (!dbPromise) {
    dbPromise =
      typeof indexedDB === 'undefined'
        ? Promise.resolve(null)
        : openDB(DB, 1, {
            upgrade(d) {
              for (const s of ['annotations', 'captures']) if (!d.objectStoreNames.contains(s)) d.createObjectStore(s);
            },
          }).catch(() => null);
  }
  return dbPromise;
}

async function get<T>(store: Store, key: string): Promise<T | undefined> {
  const d = await db();
  try {
    if (d) return (await d.get(store, key)) as T | undefined;
  } catch {
    /* fall through to memory */
  }
  return memory.get(`${store}:${key}`) as T | undefined;
}

async function put<T>(store: Store, key: string, value: T): Promise<void> {
  memory.set(`${store}:${key}`, value);
  const d = await db();
  try {
    if (d) await d.put(store, value, key);
  } catch {
    /* memory copy kept */
  }
}

const capKey = (caseId: number | null, slideId: number) => (caseId ? `case:${caseId}` : `slide:${slideId}`);
export const loadCaptures = async (caseId: number | null, slideId: number) => (await get<Capture[]>('captures', capKey(caseId, slideId))) ?? [];
export const saveCaptures = (caseId: number | null, slideId: number, list: Capture[]) => put('captures', capKey(caseId, slideId), list);
