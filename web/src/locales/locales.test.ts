// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import zh from './zh-CN.json';
import en from './en-US.json';
import { isSignInText } from './parts';

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

const SRC = join(__dirname, '..');

describe('locale files', () => {
  it('zh-CN and en-US have the same keys', () => {
    const a = Object.keys(zh).sort();
    const b = Object.keys(en).sort();
    expect(a.filter((k) => !b.includes(k))).toEqual([]);
    expect(b.filter((k) => !a.includes(k))).toEqual([]);
  });
  it('has no empty translations', () => {
    for (const dict of [zh, en] as Record<string, string>[]) expect(Object.entries(dict).filter(([, v]) => !v.trim())).toEqual([]);
  });
  it('every t("…") key used in the source exists', () => {
    const used = new Set<string>();
    for (const f of files(SRC)) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([^'$]+)'/g)) used.add(m[1]);
      // t(cond ? 'a.b' : 'c.d') forms
      for (const m of text.matchAll(/\bt\(\s*[^'()]*\?\s*'([^']+)'\s*:\s*'([^']+)'/g)) used.add(m[1]).add(m[2]);
    }
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter((k) => !(k in zh));
    expect(missing).toEqual([]);
  });
  it('the sign-in page uses only the texts it ships (parts.ts)', () => {
    const signInFiles = ['features/auth/LoginPage.tsx', 'features/auth/LoginArt.tsx', 'components/ui/LanguageSwitch.tsx', 'app/App.tsx', 'app/Root.tsx', 'app/RouteError.tsx', 'lib/api/client.ts', 'main.tsx'];
    const used = new Set<string>();
    for (const f of signInFiles) for (const m of readFileSync(join(SRC, f), 'utf8').matchAll(/\bt\(\s*'([^'$]+)'/g)) used.add(m[1]);
    expect(used.size).toBeGreaterThan(15);
    expect([...used].filter((k) => !isSignInText(k))).toEqual([]);
  });
});
