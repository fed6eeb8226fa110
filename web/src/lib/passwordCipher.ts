import { api } from './api/client';
import { unwrap } from './api/errors';
import { encryptPassword } from './crypto';

let keyPromise: Promise<string> | null = null;

// The server's public key: fetched once, refetched after failure.
function publicKey(): Promise<string> {
  if (!keyPromise) {
    keyPromise = api.GET('/api/auth/public_key').then((r) => unwrap(r).public_key);
    keyPromise.catch(() => (keyPromise = null));
  }
  return keyPromise;
}

/** Fetches the public key ahead of the first encryption (the sign-in page does as it shows). */
export function preparePasswordCipher(): void {
  publicKey().catch(() => undefined);
}

/** Encrypts a password with the server's public key. */
export async function encryptForServer(password: string): Promise<string> {
  return encryptPassword(await publicKey(), password);
}
