// Which workspace actions the signed-in expert has, from the case and its
// diagnosis versions (spec 2 §3, §5). Pure, so it is unit-tested; the server
// re-checks every action.

export type WorkAction =
  | 'lock'
  | 'save'
  | 'toreview'
  | 'publish'
  | 'return'
  | 'delay'
  | 'invite'
  | 'unlock'
  | 'approve'
  | 'reviewreturn'
  | 'reviewrecall'
  | 'recall'
  | 'supplement'
  | 'amend';

export interface VersionLike {
  type: number;
  version: number;
  status: string;
  release_at?: string | null;
  reviewer_id?: number | null;
}

export interface WorkState {
  me: number;
  /** Case status (1 under diagnosis, 2 under review, 4 published; others are out of the expert's hands). */
  caseStatus: number;
  expertId: number | null | undefined;
  lockedBy: number | null | undefined;
  reviewerId: number | null | undefined;
  versions: readonly VersionLike[];
  now: number;
  /** The server lets me amend the released report (not during a counter-audit or a supplement's review). */
  amendable?: boolean;
}

/** The latest normal (type 0) version: the working draft or the report. */
export function latestNormal<V extends VersionLike>(versions: readonly V[]): V | undefined {
  return versions.filter((v) => v.type === 0).sort((a, b) => b.version - a.version)[0];
}

/** The unpublished supplementary report (draft, in review, accepted or rejected), if any. */
export function workingSupplement<V extends VersionLike>(versions: readonly V[]): V | undefined {
  return versions.filter((v) => v.type === 1 && v.status !== 'published').sort((a, b) => b.version - a.version)[0];
}

/** A published normal report still in its hesitation period (release time in the future). */
export function inHesitation(v: VersionLike | undefined, now: number): boolean {
  return !!v && v.status === 'published' && !!v.release_at && Date.parse(v.release_at) > now;
}

export function availableActions(s: WorkState): WorkAction[] {
  const out: WorkAction[] = [];
  const work = latestNormal(s.versions);
  const published = work?.status === 'published';
  const isExpert = s.expertId != null && s.expertId === s.me;
  const lockedByMe = s.lockedBy != null && s.lockedBy === s.me;
  const underReview = work?.status === 'to_review';

  if (published) {
    if (isExpert && inHesitation(work, s.now)) out.push('recall');
    else if (isExpert) {
      out.push('supplement');
      if (s.amendable) out.push('amend');
    }
    return out;
  }
  if (s.reviewerId != null && s.reviewerId === s.me && underReview && !isExpert) {
    out.push('approve', 'reviewreturn');
    return out;
  }
  if (!isExpert) return out;
  if (underReview) {
    out.push('reviewrecall');
    return out;
  }
  if (s.caseStatus !== 1 && s.caseStatus !== 2) return out;
  if (s.lockedBy == null) {
    out.push('lock', 'return', 'delay', 'invite');
    return out;
  }
  if (!lockedByMe) return out;
  out.push('save');
  // A diagnosis sent to review must be approved before it is published; after
  // a return it goes to review again.
  const needsReview = s.reviewerId != null && work?.status !== 'approved';
  if (needsReview) out.push('toreview');
  else {
    if (work?.status !== 'approved') out.push('toreview');
    out.push('publish');
  }
  out.push('return', 'delay', 'invite', 'unlock');
  return out;
}

/** The form is editable only with the lock and no review pending. */
export const canEdit = (a: readonly WorkAction[]) => a.includes('save');

export type SupplementAction = 'save' | 'toreview' | 'reviewrecall' | 'publish' | 'discard' | 'approve' | 'reviewreturn';

/**
 * What the signed-in expert may do with the supplementary report of a released
 * case (spec 2 §5): the case's expert writes, sends to review, publishes or
 * discards it; under review only the named reviewer answers and the author
 * may take it back. One sent to review is published only once accepted.
 */
export function supplementActions(s: WorkState): SupplementAction[] {
  const work = latestNormal(s.versions);
  if (s.caseStatus !== 4 || work?.status !== 'published' || inHesitation(work, s.now)) return [];
  const supp = workingSupplement(s.versions);
  const isExpert = s.expertId != null && s.expertId === s.me;
  if (supp?.status === 'to_review') {
    if (isExpert) return ['reviewrecall'];
    return supp.reviewer_id != null && supp.reviewer_id === s.me ? ['approve', 'reviewreturn'] : [];
  }
  if (!isExpert) return [];
  if (!supp) return ['save', 'toreview', 'publish'];
  const out: SupplementAction[] = ['save', 'toreview'];
  if (supp.reviewer_id == null || supp.status === 'approved') out.push('publish');
  out.push('discard');
  return out;
}
