// Free-text search history (spec 1 §3, §5, §9): newest first, 200 kept, 10 suggestions.
export interface HistoryEntry {
  name: string;
  count: number;
  type: string;
}
export const HISTORY_CAP = 200;
export const SUGGESTION_LIMIT = 10;

export function addToHistory(list: HistoryEntry[], name: string, type = 'search'): HistoryEntry[] {
  const text = name.trim();
  if (!text) return list;
  const existing = list.find((e) => e.name === text && e.type === type);
  const rest = list.filter((e) => e !== existing);
  const next = [{ name: text, type, count: (existing?.count ?? 0) + 1 }, ...rest];
  return next.slice(0, HISTORY_CAP);
}

export function suggest(list: HistoryEntry[], input: string, type = 'search'): HistoryEntry[] {
  const needle = input.trim().toLowerCase();
  return list.filter((e) => e.type === type && (!needle || e.name.toLowerCase().includes(needle))).slice(0, SUGGESTION_LIMIT);
}
