import { describe, expect, it } from 'vitest';
import { nestRows } from './tree';

describe('nestRows', () => {
  it('nests children under parents on the page and keeps orphans at the top', () => {
    const rows = [
      { id: 1, parent_id: null },
      { id: 2, parent_id: 1 },
      { id: 3, parent_id: 2 },
      { id: 4, parent_id: 99 },
    ];
    const tree = nestRows(rows, 'id', 'parent_id');
    expect(tree.map((r) => r.id)).toEqual([1, 4]);
    expect(tree[0].children?.map((r) => r.id)).toEqual([2]);
    expect((tree[0].children?.[0] as { children?: { id: number }[] }).children?.map((r) => r.id)).toEqual([3]);
    expect(rows[0]).toEqual({ id: 1, parent_id: null });
  });
});
