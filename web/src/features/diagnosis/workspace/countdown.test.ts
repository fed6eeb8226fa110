import { describe, expect, it } from 'vitest';
import { countdown } from './countdown';

describe('countdown', () => {
  it('writes hours, minutes and seconds', () => {
    expect(countdown(3 * 3600_000 + 4 * 60_000 + 5_900)).toBe('3:04:05');
    expect(countdown(59_000)).toBe('0:00:59');
  });
  it('stops at zero', () => {
    expect(countdown(-5_000)).toBe('0:00:00');
  });
});
