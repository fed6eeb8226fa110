import { describe, expect, it } from 'vitest';
import { formatDuration, formatFileSize, formatSpeed } from './format';

describe('file sizes', () => {
  it('uses bit, Kb, Mb, Gb with 2 decimals', () => {
    expect(formatFileSize(0)).toBe('0.00 bit');
    expect(formatFileSize(1023)).toBe('1023.00 bit');
    expect(formatFileSize(1024)).toBe('1.00 Kb');
    expect(formatFileSize(1536)).toBe('1.50 Kb');
    expect(formatFileSize(5 * 1024 * 1024 + 10_000)).toBe('5.01 Mb');
    expect(formatFileSize(3.456 * 1024 ** 3)).toBe('3.46 Gb');
    expect(formatFileSize(2048 * 1024 ** 3)).toBe('2048.00 Gb');
    expect(formatFileSize(undefined)).toBe('—');
    expect(formatFileSize(-1)).toBe('—');
  });
  it('speed and remaining time', () => {
    expect(formatSpeed(2 * 1024 * 1024)).toBe('2.00 Mb/s');
    expect(formatSpeed(0)).toBe('—');
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(Infinity)).toBe('—');
  });
});
