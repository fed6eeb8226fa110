import { describe, expect, it } from 'vitest';
import { fromGeoJSON, generateAnnotations, nextId, toGeoJSON, type Annotation } from './annotations';

const sample: Annotation[] = [
  { id: 2, tool: 'rect', points: [{ x: 10, y: 20 }, { x: 110, y: 220 }], color: '#FF6261', lineWidth: 4, description: 'tumour' },
  { id: 3, tool: 'ellipse', points: [{ x: 0, y: 0 }, { x: 200, y: 100 }], color: '#E8C141', lineWidth: 2, description: '' },
  { id: 4, tool: 'polygon', points: [{ x: 1, y: 1 }, { x: 50, y: 1 }, { x: 25, y: 40 }], color: '#35D9D3', lineWidth: 6, description: 'gland' },
  { id: 5, tool: 'freehand', points: [{ x: 1, y: 1 }, { x: 2, y: 3 }, { x: 4, y: 9 }], color: '#3795FE', lineWidth: 8, description: '' },
  { id: 6, tool: 'arrow', points: [{ x: 5, y: 5 }, { x: 60, y: 70 }], color: '#B352BE', lineWidth: 10, description: 'mitosis' },
  { id: 7, tool: 'text', points: [{ x: 300, y: 400 }], color: '#027AFF', lineWidth: 2, description: 'note', fontSize: 16 },
  { id: 8, tool: 'line', points: [{ x: 0, y: 0 }, { x: 300, y: 400 }], color: '#027AFF', lineWidth: 2, description: '', measure: true },
];

describe('GeoJSON', () => {
  it('exports a FeatureCollection in image pixels with the properties', () => {
    const fc = toGeoJSON(sample);
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features[0].geometry).toEqual({ type: 'Polygon', coordinates: [[[10, 20], [110, 20], [110, 220], [10, 220], [10, 20]]] });
    expect(fc.features[0].properties).toEqual({ id: 2, tool: 'rect', color: '#FF6261', lineWidth: 4, description: 'tumour' });
    expect(fc.features[5].geometry).toEqual({ type: 'Point', coordinates: [300, 400] });
    expect(fc.features[4].geometry.type).toBe('LineString');
  });
  it('round-trips through JSON text', () => {
    const back = fromGeoJSON(JSON.parse(JSON.stringify(toGeoJSON(sample))));
    expect(back.map(({ id: _i, ...a }) => a)).toEqual(
      sample.map(({ id: _i, points, ...a }) => ({ ...a, points: a.tool === 'ellipse' ? expect.any(Array) : points })),
    );
    const e = back[1].points;
    expect(e[0].x).toBeCloseTo(0, 6);
    expect(e[0].y).toBeCloseTo(0, 6);
    expect(e[1].x).toBeCloseTo(200, 6);
    expect(e[1].y).toBeCloseTo(100, 6);
  });
  it('continues ids after the existing ones (minimum 2)', () => {
    expect(nextId([])).toBe(2);
    expect(fromGeoJSON(toGeoJSON(sample.slice(0, 2)), sample).map((a) => a.id)).toEqual([9, 10]);
  });
  it('accepts other tools’ features and rejects what is not GeoJSON', () => {
    const other = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [[[[0, 0], [4, 0], [4, 4], [0, 0]]]] }, properties: { color: 'red' } }, { type: 'Feature', geometry: null }] };
    const got = fromGeoJSON(other);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ tool: 'polygon', color: '#027AFF', lineWidth: 2, points: [{ x: 0, y: 0 }, { x: 4, y: 0 }, { x: 4, y: 4 }] });
    expect(() => fromGeoJSON({ type: 'Feature' })).toThrow();
    expect(() => fromGeoJSON(null)).toThrow();
  });
  it('generates many annotations deterministically', () => {
    const a = generateAnnotations(5000, 40000, 30000);
    expect(a).toHaveLength(5000);
    expect(generateAnnotations(3, 100, 100)).toEqual(generateAnnotations(3, 100, 100));
  });
});
