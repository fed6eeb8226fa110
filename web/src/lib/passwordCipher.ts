import { api } from './api/client';
import { unwrap } from './api/errors';
import { encryptPassword } from './crypto';

let keyPromise: Promise<string> | null = null;

/** Encrypts a password with the server's public key (fetched once, refetched after failure). */
export async function encryptForServer(password: string): Promise<string> {
  if (!keyPromise) {
    keyPromise = api.GET('/api/auth/public_key').then((r) => unwrap(r).public_key);
    keyPromise.catch(() => (keyPromise = null));
  }
  return encryptPassword(await keyPromise, password);
}
