// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { availableActions, canEdit, inHesitation, latestNormal, supplementActions, workingSupplement, type VersionLike, type WorkState } from './actions';

const NOW = Date.parse('2026-11-22T04:00:00Z');
const ME = 7;
const OTHER = 9;
const v = (status: string, extra: Partial<VersionLike> = {}): VersionLike => ({ type: 0, version: 1, status, ...extra });
const state = (s: Partial<WorkState>): WorkState => ({ me: ME, caseStatus: 1, expertId: ME, lockedBy: null, reviewerId: null, versions: [], now: NOW, ...s });

describe('workspace actions', () => {
  it('pending case of mine: lock (plus return, delay, invite), nothing to edit', () => {
    const a = availableActions(state({}));
    expect(a).toEqual(['lock', 'return', 'delay', 'invite']);
    expect(canEdit(a)).toBe(false);
  });

  it('locked by me with a draft: save, send to review, publish, return, delay, invite, unlock', () => {
    const a = availableActions(state({ lockedBy: ME, versions: [v('draft')] }));
    expect(a).toEqual(['save', 'toreview', 'publish', 'return', 'delay', 'invite', 'unlock']);
    expect(canEdit(a)).toBe(true);
  });

  it('locked by someone else: read-only, no actions', () => {
    expect(availableActions(state({ lockedBy: OTHER, versions: [v('draft')] }))).toEqual([]);
    expect(availableActions(state({ expertId: OTHER, lockedBy: OTHER }))).toEqual([]);
  });

  it('not my case at all: nothing', () => {
    expect(availableActions(state({ expertId: OTHER }))).toEqual([]);
  });

  it('the reviewer of a diagnosis under review: approve or return', () => {
    const a = availableActions(state({ expertId: OTHER, lockedBy: OTHER, reviewerId: ME, caseStatus: 2, versions: [v('to_review')] }));
    expect(a).toEqual(['approve', 'reviewreturn']);
    expect(canEdit(a)).toBe(false);
  });

  it('my diagnosis under review: only recall review', () => {
    expect(availableActions(state({ lockedBy: ME, reviewerId: OTHER, caseStatus: 2, versions: [v('to_review')] }))).toEqual(['reviewrecall']);
  });

  it('returned by the reviewer: edit and send to review again, no publish', () => {
    const a = availableActions(state({ lockedBy: ME, reviewerId: OTHER, caseStatus: 2, versions: [v('returned')] }));
    expect(a).toContain('toreview');
    expect(a).not.toContain('publish');
    expect(canEdit(a)).toBe(true);
  });

  it('approved by the reviewer: publish, no second review', () => {
    const a = availableActions(state({ lockedBy: ME, reviewerId: OTHER, caseStatus: 2, versions: [v('approved')] }));
    expect(a).toContain('publish');
    expect(a).not.toContain('toreview');
  });

  it('published, in the hesitation period: recall publication only', () => {
    const work = v('published', { release_at: new Date(NOW + 3600_000).toISOString() });
    expect(inHesitation(work, NOW)).toBe(true);
    expect(availableActions(state({ caseStatus: 4, versions: [work] }))).toEqual(['recall']);
  });

  it('published and released: supplementary report for the expert, nothing for others', () => {
    const work = v('published', { release_at: new Date(NOW - 1000).toISOString() });
    expect(availableActions(state({ caseStatus: 4, versions: [work] }))).toEqual(['supplement']);
    expect(availableActions(state({ caseStatus: 4, versions: [work], amendable: true }))).toEqual(['supplement', 'amend']);
    expect(availableActions(state({ caseStatus: 4, versions: [work], amendable: true, expertId: OTHER }))).toEqual([]);
    expect(availableActions(state({ caseStatus: 4, expertId: OTHER, versions: [work] }))).toEqual([]);
  });

  it('the working version is the latest normal one, not a supplement', () => {
    const list = [v('published', { version: 1 }), v('draft', { version: 2 }), { type: 1, version: 3, status: 'draft' }];
    expect(latestNormal(list)?.version).toBe(2);
  });

  it('a case no longer in the expert hands (returned, recalled): nothing', () => {
    expect(availableActions(state({ caseStatus: 0 }))).toEqual([]);
  });
});

describe('supplementary report actions', () => {
  const report = v('published', { release_at: '2026-11-20T00:00:00Z' });
  const supp = (status: string, reviewer_id: number | null = null) => v(status, { type: 1, version: 1, reviewer_id });
  const released = (extra: VersionLike[], s: Partial<WorkState> = {}) => supplementActions(state({ caseStatus: 4, versions: [report, ...extra], ...s }));

  it('the expert starts one: save, send to review or publish at once', () => {
    expect(released([])).toEqual(['save', 'toreview', 'publish']);
    expect(released([supp('draft')])).toEqual(['save', 'toreview', 'publish', 'discard']);
  });

  it('once sent to review it is published only when accepted', () => {
    expect(released([supp('draft', OTHER)])).toEqual(['save', 'toreview', 'discard']);
    expect(released([supp('returned', OTHER)])).toEqual(['save', 'toreview', 'discard']);
    expect(released([supp('approved', OTHER)])).toEqual(['save', 'toreview', 'publish', 'discard']);
  });

  it('under review: the author may only recall, the named reviewer answers, others nothing', () => {
    expect(released([supp('to_review', OTHER)])).toEqual(['reviewrecall']);
    expect(released([supp('to_review', ME)], { expertId: OTHER })).toEqual(['approve', 'reviewreturn']);
    expect(released([supp('to_review', 11)], { expertId: OTHER })).toEqual([]);
    expect(released([supp('draft', ME)], { expertId: OTHER })).toEqual([]);
  });

  it('nothing before the report is released, and the working one is the unpublished one', () => {
    expect(supplementActions(state({ caseStatus: 4, versions: [v('published', { release_at: '2026-11-23T00:00:00Z' })] }))).toEqual([]);
    expect(supplementActions(state({ caseStatus: 1, versions: [v('draft')] }))).toEqual([]);
    const older = v('published', { type: 1, version: 1 });
    const newer = v('returned', { type: 1, version: 2 });
    expect(workingSupplement([report, older, newer])).toBe(newer);
    expect(workingSupplement([report, older])).toBeUndefined();
  });
});
