import { describe, expect, it } from 'vitest';
import {
  affineFrom, bounds, effectiveObjective, formatArea, formatLength, formatMagnification, magnificationForZoom,
  polygonArea, polygonPerimeter, polylineLength, rectPoints, round2, scaleBar, zoomForMagnification,
} from './geometry';

describe('measurement geometry', () => {
  it('measures a line from image pixels and mpp', () => {
    const len = polylineLength([{ x: 0, y: 0 }, { x: 300, y: 400 }]);
    expect(len).toBe(500);
    expect(formatLength(len, 0.25).text).toBe('125.00 µm');
    expect(formatLength(len, 0.2527).text).toBe('126.35 µm');
    expect(formatLength(10_000, 0.5)).toEqual({ value: 5, unit: 'mm', text: '5.00 mm' });
    expect(formatLength(12.345, 0).text).toBe('12.35 px');
  });
  it('measures rectangle and polygon areas (shoelace), in either winding', () => {
    const r = rectPoints({ x: 100, y: 100 }, { x: 500, y: 300 });
    expect(polygonArea(r)).toBe(80_000);
    expect(polygonArea([...r].reverse())).toBe(80_000);
    expect(polygonPerimeter(r)).toBe(1200);
    expect(formatArea(80_000, 0.25).text).toBe('5000.00 µm²');
    expect(formatArea(4000 * 4000, 0.25)).toEqual({ value: 1, unit: 'mm²', text: '1.00 mm²' });
    const tri = [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 0, y: 10 }];
    expect(polygonArea(tri)).toBe(50);
    expect(polygonArea(tri.slice(0, 2))).toBe(0);
  });
  it('rounds to 2 decimals', () => {
    expect(round2(1.005 + 1e-9)).toBe(1.01);
    expect(round2(2.344)).toBe(2.34);
  });
  it('bounds of points', () => {
    expect(bounds([{ x: 5, y: 9 }, { x: -1, y: 3 }, { x: 2, y: 20 }])).toEqual({ x: -1, y: 3, w: 6, h: 17 });
  });
  it('affine map carries rotation: 90° maps +x to +y on screen', () => {
    const m = affineFrom({ x: 10, y: 10 }, { x: 10, y: 12 }, { x: 8, y: 10 });
    expect(m).toEqual([0, 2, -2, 0, 10, 10]);
  });
});

describe('magnification and zoom', () => {
  it('converts magnification to viewport zoom relative to the objective and back', () => {
    // a 40,000 px wide scan in a 1,000 px wide viewer: factor = 40
    const f = 40_000 / 1000;
    expect(zoomForMagnification(40, 40, f)).toBe(40);
    expect(zoomForMagnification(10, 40, f)).toBe(10);
    expect(zoomForMagnification(1, 20, f)).toBe(2);
    for (const m of [1, 2, 4, 10, 20, 40]) expect(magnificationForZoom(zoomForMagnification(m, 20, f), 20, f)).toBeCloseTo(m, 10);
  });
  it('estimates the objective from mpp when the file lacks it', () => {
    expect(effectiveObjective(20, 0.5)).toBe(20);
    expect(effectiveObjective(0, 0.25)).toBe(40);
    expect(effectiveObjective(0, 0.5)).toBe(20);
    expect(effectiveObjective(0, 0)).toBe(40);
  });
  it('formats the live magnification', () => {
    expect(formatMagnification(2.345)).toBe('2.3×');
    expect(formatMagnification(39.6)).toBe('40×');
  });
  it('picks a nice scale bar length in µm or mm', () => {
    expect(scaleBar(0.25, 120)).toEqual({ px: 80, label: '20 µm' });
    expect(scaleBar(10, 120)).toEqual({ px: 100, label: '1 mm' });
    expect(scaleBar(1, 120)).toEqual({ px: 100, label: '100 µm' });
    expect(scaleBar(0, 120)).toBeNull();
  });
});
