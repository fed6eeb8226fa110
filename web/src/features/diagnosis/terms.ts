// Diagnosis terms: filtering them in the picker and the settings table, and
// inserting one into a text at the caret.

/** What filtering needs of a term. */
export interface TermLike {
  category: string;
  text: string;
}

/** The category filter's value for "every category". */
export const ALL_CATEGORIES = '*';

/**
 * The terms of a category (or all) whose text or category contains q, ignoring
 * case; terms starting with q come first, otherwise the order is kept.
 */
export function filterTerms<T extends TermLike>(list: readonly T[], q: string, category = ALL_CATEGORIES): T[] {
  const s = q.trim().toLowerCase();
  const inCategory = list.filter((x) => category === ALL_CATEGORIES || x.category === category);
  if (!s) return inCategory;
  const hits = inCategory.filter((x) => x.text.toLowerCase().includes(s) || x.category.toLowerCase().includes(s));
  const starts = (x: T) => (x.text.toLowerCase().startsWith(s) ? 0 : 1);
  return hits.map((x, i) => ({ x, i })).sort((a, b) => starts(a.x) - starts(b.x) || a.i - b.i).map((e) => e.x);
}

/** The distinct categories in list order ('' for terms without one). */
export function termCategories(list: readonly TermLike[]): string[] {
  return [...new Set(list.map((x) => x.category))];
}

/**
 * value with text put at the selection [start, end) (replacing it), and where
 * the caret goes after it. A selection outside the value is clamped to it.
 */
export function insertAtCaret(value: string, start: number, end: number, text: string): { value: string; caret: number } {
  const a = Math.max(0, Math.min(start, value.length));
  const b = Math.max(a, Math.min(end, value.length));
  return { value: value.slice(0, a) + text + value.slice(b), caret: a + text.length };
}
