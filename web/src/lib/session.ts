// The signed-in session: token (local or session storage per "remember me"),
// user id and the screen-lock flag (with the name the lock screen shows, since
// a locked session may not load the user's info). Observable via useSession().
import { useSyncExternalStore } from 'react';
import { storage } from './storage';

export interface SessionState {
  token: string | null;
  userId: number | null;
  locked: boolean;
  lockedName: string;
}

const listeners = new Set<() => void>();
let state: SessionState = read();
/** A token from the URL that waits for the user's word before it replaces a signed-in session. */
let offered: string | null = null;

function read(): SessionState {
  const id = storage.get('userId');
  return { token: storage.get('token'), userId: id ? Number(id) : null, locked: storage.get('locked') === '1', lockedName: storage.get('lockedName') ?? '' };
}
function emit() {
  state = read();
  listeners.forEach((l) => l());
}

export const session = {
  get: () => state,
  token: () => state.token,
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  signIn(token: string, userId: number | null, remember: boolean) {
    storage.set('token', token, remember);
    if (userId !== null) storage.set('userId', String(userId), remember);
    else storage.remove('userId');
    storage.remove('locked');
    storage.remove('lockedName');
    emit();
  },
  /** A token passed in the URL replaces the stored one (kept for this tab only). */
  adoptToken(token: string) {
    storage.set('token', token, false);
    storage.remove('userId');
    emit();
  },
  /** Holds a token from the URL while another user is signed in; takeOffer() hands it over once. */
  offerToken(token: string) {
    offered = token;
  },
  takeOffer(): string | null {
    const t = offered;
    offered = null;
    return t;
  },
  setUserId(id: number) {
    const persistent = (() => {
      try {
        return localStorage.getItem('tp.token') !== null;
      } catch {
        return false;
      }
    })();
    storage.set('userId', String(id), persistent);
    emit();
  },
  setLocked(locked: boolean, name?: string) {
    if (locked) storage.set('locked', '1');
    else storage.remove('locked');
    if (locked && name) storage.set('lockedName', name);
    if (!locked) storage.remove('lockedName');
    emit();
  },
  clear() {
    storage.remove('token');
    storage.remove('userId');
    storage.remove('locked');
    storage.remove('lockedName');
    emit();
  },
};

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get);
}
