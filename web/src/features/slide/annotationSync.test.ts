import { describe, expect, it } from 'vitest';
import { readonlyLabels, type OtherSet } from './annotationSync';
import { fromGeoJSON } from './annotations';

const set = (userId: number, ids: number[]): OtherSet => ({
  userId,
  name: `u${userId}`,
  updatedAt: null,
  labels: ids.map((id) => ({ id, tool: 'rect', points: [{ x: 0, y: 0 }, { x: 1, y: 1 }], color: '#027AFF', lineWidth: 2, description: '' })),
});

describe('others’ labels', () => {
  it('get unique negative ids and follow the per-author switch', () => {
    const others = [set(7, [2, 3]), set(9, [2])];
    const all = readonlyLabels(others, new Set());
    expect(all.map((a) => a.id)).toEqual([-1, -2, -3]);
    expect(readonlyLabels(others, new Set([7])).length).toBe(1);
    expect(readonlyLabels(others, new Set([7, 9]))).toEqual([]);
  });
  it('imports drop bare points the server would refuse as text without text', () => {
    const got = fromGeoJSON({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: {} },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { description: 'mitosis', lineWidth: 0.5 } },
      ],
    });
    expect(got.length).toBe(1);
    expect(got[0]).toMatchObject({ tool: 'text', description: 'mitosis', lineWidth: 2 });
  });
});
