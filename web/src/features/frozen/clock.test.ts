import { describe, expect, it } from 'vitest';
import { addDays, clockText, countdown, cycleDays, dayIn, level, monthGrid, shareWithin, timeIn, turnaroundMinutes } from './clock';

describe('frozen clock', () => {
  it('turns amber at 15 and red at 20 minutes, or at the center’s thresholds', () => {
    expect(level(14 * 60_000 + 59_000)).toBe('ok');
    expect(level(15 * 60_000)).toBe('amber');
    expect(level(19 * 60_000 + 59_000)).toBe('amber');
    expect(level(20 * 60_000)).toBe('red');
    expect(level(11 * 60_000, { amberMin: 10, redMin: 12 })).toBe('amber');
  });
  it('writes the clock', () => {
    expect(clockText(0)).toBe('00:00');
    expect(clockText(65_000)).toBe('01:05');
    expect(clockText(3_725_000)).toBe('1:02:05');
    expect(clockText(-5000)).toBe('00:00');
  });
  it('counts down to the operation and past it', () => {
    const now = Date.parse('2026-12-01T08:00:00Z');
    expect(countdown('2026-12-01T08:30:00Z', now)).toMatchObject({ text: '30:00', past: false });
    expect(countdown('2026-12-03T09:00:00Z', now).text).toBe('2d 1:00:00');
    expect(countdown('2026-12-01T07:59:00Z', now)).toMatchObject({ text: '01:00', past: true });
  });
  it('measures turnaround', () => {
    expect(turnaroundMinutes(null)).toBeNull();
    expect(turnaroundMinutes(754)).toBe(12.6);
    expect(shareWithin([600, 1200, 1500, null])).toBe(67);
    expect(shareWithin([null])).toBeNull();
  });
  it('reads days and times in the operator’s zone', () => {
    const t = new Date('2026-11-30T17:30:00Z');
    expect(dayIn(t, 'Asia/Shanghai')).toBe('2026-12-01');
    expect(timeIn(t, 'Asia/Shanghai')).toBe('01:30');
    expect(dayIn(t, 'UTC')).toBe('2026-11-30');
  });
  it('builds month grids across month and year boundaries', () => {
    const dec = monthGrid('2026-12');
    expect(dec[0][0]).toBe('2026-11-30'); // Monday before 1 December (a Tuesday)
    expect(dec.flat()).toContain('2026-12-31');
    expect(dec.at(-1)!.at(-1)).toBe('2027-01-03');
    expect(monthGrid('2027-02').flat().filter((d) => d.startsWith('2027-02'))).toHaveLength(28);
    expect(monthGrid('2028-02').flat().filter((d) => d.startsWith('2028-02'))).toHaveLength(29);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(cycleDays('2026-12-30', 3)).toEqual(['2026-12-30', '2026-12-31', '2027-01-01']);
  });
});
