// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { webcrypto } from 'node:crypto';
import { encryptPassword, passwordStrongEnough, toBase64 } from './crypto';

describe('encryptPassword', () => {
  it('encrypts with RSA-OAEP SHA-256 so the private key can decrypt it', async () => {
    const pair = await webcrypto.subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['encrypt', 'decrypt'],
    );
    const spki = await webcrypto.subtle.exportKey('spki', pair.publicKey);
    const b64 = toBase64(spki);
    const pem = `-----BEGIN PUBLIC KEY-----\n${b64.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
    const cipher = await encryptPassword(pem, 'Telepath@2026');
    expect(atob(cipher)).toHaveLength(256);
    const raw = Uint8Array.from(atob(cipher), (c) => c.charCodeAt(0));
    const plain = await webcrypto.subtle.decrypt({ name: 'RSA-OAEP' }, pair.privateKey, raw);
    expect(new TextDecoder().decode(plain)).toBe('Telepath@2026');
  });
});

describe('passwordStrongEnough', () => {
  it.each([
    ['short1A!', true],
    ['abc', false],
    ['abcdefgh', false],
    ['abcdefG1', true],
    ['abcdef1!', true],
    ['ABCDEFGH12', false],
  ])('%s → %s', (pw, ok) => expect(passwordStrongEnough(pw)).toBe(ok));
});
