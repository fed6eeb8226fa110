import { describe, expect, it } from 'vitest';
import { isValidAge, isValidIdCard, isValidOtherId, isValidPathologyNumber, isValidPhone, parseIdCard } from './validators';

describe('ID card numbers', () => {
  it('accepts a number with the right check digit and reads birthday and gender', () => {
    expect(parseIdCard('11010519491231002X')).toEqual({ birthday: '1949-12-31', gender: 'female' });
    expect(parseIdCard('110105194912310029')).toBeNull();
    expect(isValidIdCard('440524188001010014')).toBe(true);
    expect(parseIdCard('440524188001010014')?.gender).toBe('male');
  });
  it('accepts a lower-case x check character', () => {
    expect(isValidIdCard('11010519491231002x')).toBe(true);
  });
  it('rejects wrong lengths, letters and impossible dates', () => {
    expect(isValidIdCard('11010519491231002')).toBe(false);
    expect(isValidIdCard('1101051949123100211')).toBe(false);
    expect(isValidIdCard('1101A519491231002X')).toBe(false);
    // 1949-02-30 does not exist (check digit computed for it)
    expect(isValidIdCard('110105194902300027')).toBe(false);
  });
  it('other documents need five characters', () => {
    expect(isValidOtherId('E1234')).toBe(true);
    expect(isValidOtherId('E12')).toBe(false);
  });
});

describe('phone numbers', () => {
  it('accepts mobiles and landlines', () => {
    for (const p of ['13812345678', '19912345678', '010-12345678', '0755-1234567', '12345678']) expect(isValidPhone(p)).toBe(true);
  });
  it('rejects malformed numbers', () => {
    for (const p of ['12812345678', '1381234567', '138123456789', 'abc', '010-123', '+8613812345678']) expect(isValidPhone(p)).toBe(false);
  });
});

describe('age', () => {
  it('is a whole number within the unit limit', () => {
    expect(isValidAge('45')).toBe(true);
    expect(isValidAge('0', 'day')).toBe(true);
    expect(isValidAge('151', 'year')).toBe(false);
    expect(isValidAge('151', 'month')).toBe(true);
    expect(isValidAge('4.5')).toBe(false);
    expect(isValidAge('-3')).toBe(false);
    expect(isValidAge('forty')).toBe(false);
    expect(isValidAge('')).toBe(false);
  });
});

describe('pathology numbers', () => {
  it('allow digits, letters, underscore and hyphen only', () => {
    expect(isValidPathologyNumber('BL2026-0001_a')).toBe(true);
    expect(isValidPathologyNumber('BL 2026')).toBe(false);
    expect(isValidPathologyNumber('病理001')).toBe(false);
    expect(isValidPathologyNumber('A/1')).toBe(false);
  });
});
