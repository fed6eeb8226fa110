import { describe, expect, it } from 'vitest';
import { ageText } from './age';

const t = (k: string) => ({ 'case.ageUnit.year': '岁', 'case.ageUnit.month': '月', 'case.ageUnit.day': '天' })[k] ?? k;

describe('ageText', () => {
  it('writes the age with its unit', () => {
    expect(ageText(t, 45, 'year')).toBe('45岁');
    expect(ageText(t, 3, 'month')).toBe('3月');
    expect(ageText(t, 12, 'day')).toBe('12天');
    expect(ageText(t, 0, 'day')).toBe('0天');
  });
  it('takes years when the unit is missing or unknown, and a dash without an age', () => {
    expect(ageText(t, 45, undefined)).toBe('45岁');
    expect(ageText(t, 45, 'week')).toBe('45岁');
    expect(ageText(t, null, 'year')).toBe('—');
  });
});
