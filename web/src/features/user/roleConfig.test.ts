import { describe, expect, it } from 'vitest';
import { configsToText, isJsonObjectText, textToConfigs } from './roleConfig';

describe('role config text', () => {
  it('round-trips and keeps only selected roles', () => {
    const text = configsToText({ expert: { level: 2 }, site: {} });
    expect(text.site).toBe('');
    expect(textToConfigs(['expert', 'admin'], text)).toEqual({ expert: { level: 2 }, admin: {} });
  });
  it('validates JSON objects', () => {
    expect(isJsonObjectText('')).toBe(true);
    expect(isJsonObjectText('{"a":1}')).toBe(true);
    expect(isJsonObjectText('[1]')).toBe(false);
    expect(isJsonObjectText('{a:1}')).toBe(false);
  });
});
