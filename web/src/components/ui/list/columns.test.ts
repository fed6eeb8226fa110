import { describe, expect, it } from 'vitest';
import { mergeSettings } from './useColumnSettings';
import { moveItem } from './ColumnSettings';

describe('column settings', () => {
  const declared = [{ key: 'id' }, { key: 'name' }, { key: 'email', defaultHidden: true }];
  it('uses the declared order and default visibility when nothing is stored', () => {
    expect(mergeSettings(declared, undefined)).toEqual([
      { key: 'id', show: true },
      { key: 'name', show: true },
      { key: 'email', show: false },
    ]);
  });
  it('keeps the stored order, drops unknown columns and appends new ones', () => {
    const stored = [{ key: 'name', show: false }, { key: 'gone', show: true }, { key: 'id', show: true }];
    expect(mergeSettings(declared, stored)).toEqual([
      { key: 'name', show: false },
      { key: 'id', show: true },
      { key: 'email', show: false },
    ]);
  });
  it('moves an item by drag', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });
});
