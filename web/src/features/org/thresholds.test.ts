import { describe, expect, it } from 'vitest';
import { thresholdProblem } from './thresholds';

describe('frozen clock thresholds of a center', () => {
  it('accepts whole positive minutes with amber before red', () => {
    expect(thresholdProblem(15)).toBeNull();
    expect(thresholdProblem(20, 15, true)).toBeNull();
    expect(thresholdProblem(undefined)).toBeNull();
  });
  it('refuses zero, negative, fractional and too large values', () => {
    expect(thresholdProblem(0)).toBe('minutes');
    expect(thresholdProblem(-3)).toBe('minutes');
    expect(thresholdProblem(2.5)).toBe('minutes');
    expect(thresholdProblem(1441)).toBe('minutes');
  });
  it('refuses red not after amber', () => {
    expect(thresholdProblem(20, 20, true)).toBe('order');
    expect(thresholdProblem(10, 15, true)).toBe('order');
  });
});
