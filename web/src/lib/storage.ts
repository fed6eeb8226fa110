// Small typed wrappers around Web Storage plus a subscribable preference store.
const PREFIX = 'tp.';

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export const storage = {
  get(key: string): string | null {
    return safe(() => localStorage.getItem(PREFIX + key) ?? sessionStorage.getItem(PREFIX + key), null);
  },
  set(key: string, value: string, persistent = true): void {
    safe(() => {
      (persistent ? localStorage : sessionStorage).setItem(PREFIX + key, value);
      (persistent ? sessionStorage : localStorage).removeItem(PREFIX + key);
    }, undefined);
  },
  remove(key: string): void {
    safe(() => {
      localStorage.removeItem(PREFIX + key);
      sessionStorage.removeItem(PREFIX + key);
    }, undefined);
  },
};

type Listener = () => void;

/** A tiny observable value persisted in localStorage (for useSyncExternalStore). */
export function createStoredValue<T extends string>(key: string, initial: T, isValid: (v: string) => v is T) {
  const listeners = new Set<Listener>();
  let value: T = (() => {
    const raw = storage.get(key);
    return raw !== null && isValid(raw) ? raw : initial;
  })();
  return {
    get: () => value,
    set(next: T) {
      value = next;
      storage.set(key, next);
      listeners.forEach((l) => l());
    },
    subscribe(l: Listener) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
