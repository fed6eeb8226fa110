import { describe, expect, it } from 'vitest';
import { defaultMiddle, exampleNumber } from './numberRule';

describe('pathology number rule', () => {
  const day = new Date(2026, 10, 3);
  it('fills the middle digits from the date', () => {
    expect(defaultMiddle(2, day)).toBe('26');
    expect(defaultMiddle(4, day)).toBe('2026');
    expect(defaultMiddle(6, day)).toBe('202611');
    expect(defaultMiddle(8, day)).toBe('20261103');
    expect(defaultMiddle(3, day)).toBe('000');
  });
  it('builds the first number of a rule', () => {
    expect(exampleNumber({ prefix: 'BL', middle_digits: 4, symbol: '-', digit_length: 5 }, day)).toBe('BL2026-00001');
    expect(exampleNumber({ prefix: 'F' }, day)).toBe('F001');
    expect(exampleNumber({}, day)).toBe('001');
  });
});
