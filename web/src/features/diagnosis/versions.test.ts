// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { inHesitation, latestNormal, workingSupplement, type VersionLike } from './versions';

const NOW = Date.parse('2026-11-22T04:00:00Z');
const v = (status: string, extra: Partial<VersionLike> = {}): VersionLike => ({ type: 0, version: 1, status, ...extra });

describe('diagnosis versions', () => {
  it('the working version is the latest normal one, not a supplement', () => {
    const list = [v('published', { version: 1 }), v('draft', { version: 2 }), { type: 1, version: 3, status: 'draft' }];
    expect(latestNormal(list)?.version).toBe(2);
  });

  it('a published report is in its hesitation period until its release time', () => {
    expect(inHesitation(v('published', { release_at: new Date(NOW + 3600_000).toISOString() }), NOW)).toBe(true);
    expect(inHesitation(v('published', { release_at: new Date(NOW - 1000).toISOString() }), NOW)).toBe(false);
    expect(inHesitation(v('draft', { release_at: new Date(NOW + 3600_000).toISOString() }), NOW)).toBe(false);
    expect(inHesitation(undefined, NOW)).toBe(false);
  });

  it('the working supplement is the latest unpublished one', () => {
    const report = v('published', { release_at: '2026-11-20T00:00:00Z' });
    const older = v('published', { type: 1, version: 1 });
    const newer = v('returned', { type: 1, version: 2 });
    expect(workingSupplement([report, older, newer])).toBe(newer);
    expect(workingSupplement([report, older])).toBeUndefined();
  });
});
