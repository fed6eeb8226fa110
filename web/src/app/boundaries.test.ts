// @vitest-environment node
// STYLE.md: features do not import each other; shared code lives in components/ or lib/.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const FEATURES = join(__dirname, '..', 'features');
// Existing exceptions to move into lib/ (kept explicit so no new ones slip in).
const KNOWN: string[] = [];

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

describe('feature boundaries', () => {
  it('no feature imports another feature', () => {
    const bad: string[] = [];
    for (const f of files(FEATURES)) {
      const rel = relative(FEATURES, f);
      const own = rel.split(/[\\/]/)[0];
      for (const m of readFileSync(f, 'utf8').matchAll(/from\s+'([^']+)'/g)) {
        const spec = m[1];
        const target = spec.match(/^(?:\.\.\/)+features\/([^/]+)/)?.[1] ?? (spec.startsWith('../') && !spec.startsWith('../../') ? spec.split('/')[1] : undefined);
        if (target && target !== own) bad.push(`${rel.replace(/\\/g, '/')} -> ${target}`);
      }
    }
    expect(bad.filter((b) => !KNOWN.includes(b))).toEqual([]);
  });
});
