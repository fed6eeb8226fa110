import { describe, expect, it } from 'vitest';
import { clockText, elapsedMs, level } from './frozenClock';

describe('frozen clock of the workspace', () => {
  const arrived = '2026-11-26T10:00:00Z';
  it('runs from the arrival while unreported', () => {
    const now = Date.parse('2026-11-26T10:16:05Z');
    expect(clockText(elapsedMs(arrived, null, now))).toBe('16:05');
    expect(level(elapsedMs(arrived, null, now))).toBe('amber');
  });
  it('stops at the report', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    const ms = elapsedMs(arrived, '2026-11-26T10:12:30Z', now);
    expect(clockText(ms)).toBe('12:30');
    expect(level(ms)).toBe('ok');
  });
  it('turns red at the red threshold', () => {
    expect(level(elapsedMs(arrived, '2026-11-26T10:20:00Z', 0))).toBe('red');
    expect(level(elapsedMs(arrived, '2026-11-26T10:20:00Z', 0), { amberMin: 25, redMin: 30 })).toBe('ok');
  });
});
