// The diagnosis versions of a case as the workspace reads them: the working
// report, the working supplement, the hesitation period. What the user may
// do with them is the server's (a case's actions, drawn by actionRegistry).

export interface VersionLike {
  type: number;
  version: number;
  status: string;
  release_at?: string | null;
  reviewer_id?: number | null;
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
