// Marker results of special exams: the rows the expert starts from and the
// text the report prints.

export interface MarkerResult {
  marker: string;
  result: string;
}

export const MAX_MARKER_ROWS = 50;
export const MAX_MARKER_LEN = 50;
export const MAX_RESULT_LEN = 100;
export const MAX_INTERPRETATION_LEN = 1000;

/** Result values offered while typing (any text is accepted). */
export const RESULT_SUGGESTIONS = ['+', '-', '±', '弱+', '++', '+++', '灶+'];

/**
 * Splits ordered markers ("CK, CD20、Ki-67 / CD3；PAS") into distinct marker
 * names, in order: commas, 、, semicolons, slashes and spaces separate them.
 */
export function splitMarkers(markers: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of markers.split(/[\s,，、;；/]+/)) {
    const m = raw.trim();
    if (!m || seen.has(m.toUpperCase())) continue;
    seen.add(m.toUpperCase());
    out.push(m);
  }
  return out.slice(0, MAX_MARKER_ROWS);
}

/** The rows to edit: the recorded results, or one empty row per ordered marker. */
export function initialRows(recorded: MarkerResult[] | null | undefined, ordered: string): MarkerResult[] {
  if (recorded?.length) return recorded.map((r) => ({ ...r }));
  const rows = splitMarkers(ordered).map((marker) => ({ marker, result: '' }));
  return rows.length ? rows : [{ marker: '', result: '' }];
}

/** Markers named more than once (case-insensitive), as typed the second time. */
export function duplicateMarkers(rows: Partial<MarkerResult>[]): string[] {
  const seen = new Set<string>();
  const dup: string[] = [];
  for (const r of rows) {
    const m = (r.marker ?? '').trim();
    if (!m) continue;
    if (seen.has(m.toUpperCase())) dup.push(m);
    seen.add(m.toUpperCase());
  }
  return dup;
}

/** "CK（+），CD20（-）" in Chinese, "CK (+), CD20 (-)" otherwise, as the report prints. */
export function formatMarkerResults(rows: MarkerResult[] | null | undefined, lang: string): string {
  const zh = lang.startsWith('zh');
  return (rows ?? []).map((r) => (zh ? `${r.marker}（${r.result}）` : `${r.marker} (${r.result})`)).join(zh ? '，' : ', ');
}
