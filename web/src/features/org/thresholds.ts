// The frozen clock's thresholds of a center (minutes): whole, 1 to 1440, amber before red.

export type ThresholdProblem = 'minutes' | 'order' | null;

/** What is wrong with one threshold, or with the pair (the red one carries the order problem). */
export function thresholdProblem(value: unknown, other?: unknown, isRed = false): ThresholdProblem {
  if (value == null || value === '') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1440) return 'minutes';
  if (isRed && other != null && other !== '' && Number(other) >= n) return 'order';
  return null;
}
