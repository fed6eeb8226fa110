import { describe, expect, it } from 'vitest';
import {
  clampPoints, defaultForm, flagPoints, hitTest, initialCrop, isDrawn, labelProblem, makeLabel, nextId, parseLabels, processFilter,
  serializeLabels, starPoints, STROKE_DEFAULT, type Label,
} from './labels';
import { moveItem } from './order';

const rect = (id: number, pts = [10, 10, 50, 40]): Label => ({ id, tool: 'rect', points: pts, strokeStyle: STROKE_DEFAULT, fillStyle: '', lineWidth: 2, description: '', fontSize: 14, angle: 0 });

describe('gallery labels', () => {
  it('numbers a new label one above the largest, starting at 2', () => {
    expect(nextId([])).toBe(2);
    expect(nextId([rect(2), rect(7), rect(3)])).toBe(8);
    const l = makeLabel([rect(4)], 'arrow', [1, 2, 3, 4], { ...defaultForm, description: 'x' });
    expect(l).toMatchObject({ id: 5, tool: 'arrow', points: [1, 2, 3, 4], strokeStyle: '#027AFF', fillStyle: '', lineWidth: 2, fontSize: 14, angle: 0, description: 'x' });
  });

  it('serialises to the server form and parses back, dropping malformed labels', () => {
    const ls = [rect(2), { ...rect(3), tool: 'font' as const, points: [5, 5], description: '病灶' }];
    const json = JSON.parse(JSON.stringify(serializeLabels(ls)));
    expect(parseLabels(json)).toEqual(ls);
    expect(parseLabels([{ id: 2, tool: 'hexagon', points: [1, 2] }, { id: 3, tool: 'line', points: [1, 'a'] }, null, 'x'])).toEqual([]);
    expect(parseLabels({})).toEqual([]);
    expect(parseLabels([{ id: 2, tool: 'line', points: [0, 0, 1, 1] }])[0]).toMatchObject({ strokeStyle: STROKE_DEFAULT, lineWidth: 2, fontSize: 14 });
  });

  it('finds what the server would refuse', () => {
    expect(labelProblem(rect(2), 100, 100)).toBeNull();
    expect(labelProblem(rect(1), 100, 100)).toBe('id');
    expect(labelProblem(rect(2, [10, 10, 120, 40]), 100, 100)).toBe('outside');
    expect(labelProblem({ ...rect(2), points: [1, 2, 3] }, 100, 100)).toBe('points');
    expect(labelProblem({ ...rect(2), fillStyle: '#000000' }, 100, 100)).toBe('colour');
    expect(labelProblem({ ...rect(2), lineWidth: 0 }, 100, 100)).toBe('size');
    expect(labelProblem({ ...rect(2), tool: 'font', points: [1, 1], description: ' ' }, 100, 100)).toBe('text');
  });

  it('keeps drawn points inside the image and ignores a click without a drag', () => {
    expect(clampPoints([-5, 20, 130.04, 90], 100, 80)).toEqual([0, 20, 100, 80]);
    expect(isDrawn('line', [1, 1, 2, 2])).toBe(false);
    expect(isDrawn('line', [1, 1, 20, 2])).toBe(true);
    expect(isDrawn('curve', [1, 1])).toBe(false);
    expect(isDrawn('font', [1, 1])).toBe(true);
  });

  it('hit-tests the topmost label near its outline', () => {
    const ls = [rect(2), rect(3, [30, 30, 90, 90])];
    expect(hitTest(ls, 30, 35, 3)?.id).toBe(3);
    expect(hitTest(ls, 10, 25, 3)?.id).toBe(2);
    expect(hitTest(ls, 60, 60, 3)).toBeNull();
    const star = { ...rect(4), tool: 'star' as const, points: [50, 50, 50, 30] };
    expect(hitTest([star], 50, 30, 2)?.id).toBe(4);
  });

  it('draws stars, flags, the crop frame and the process filter as the server does', () => {
    const s = starPoints(0, 0, 10);
    expect(s).toHaveLength(10);
    expect(s[0][0]).toBeCloseTo(0);
    expect(s[0][1]).toBeCloseTo(-10);
    expect(Math.hypot(...s[1])).toBeCloseTo(4);
    expect(flagPoints(0, 100, 40, 20)).toEqual([[0, 100], [0, 20], [40, 40], [0, 60]]);
    expect(initialCrop(400, 300)).toEqual({ x: 100, y: 75, w: 200, h: 150 });
    expect(processFilter({ brightness: 120, saturate: 100, contrast: 90 })).toBe('brightness(120%) saturate(100%) contrast(90%)');
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });
});
