import { describe, expect, it } from 'vitest';
import { diffFields, showValue } from './diff';

describe('diffFields', () => {
  it('lists only changed fields, including added and removed ones', () => {
    expect(diffFields({ a: 1, b: [1], c: 'x' }, { a: 1, b: [1, 2], d: true })).toEqual([
      { field: 'b', before: [1], after: [1, 2] },
      { field: 'c', before: 'x', after: undefined },
      { field: 'd', before: undefined, after: true },
    ]);
  });
  it('treats a create (null before) as every field added and ignores non-objects', () => {
    expect(diffFields(null, { id: 1 })).toEqual([{ field: 'id', before: undefined, after: 1 }]);
    expect(diffFields(null, null)).toEqual([]);
    expect(showValue({ x: 1 })).toBe('{"x":1}');
  });
});
