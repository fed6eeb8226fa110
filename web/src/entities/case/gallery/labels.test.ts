import { describe, expect, it } from 'vitest';
import {
  clampPoints, defaultForm, flagPoints, hitTest, initialCrop, isDrawn, labelBox, labelProblem, makeLabel, moveLabel, nextId, parseLabels,
  placeAtCentre, processFilter, resizeLabel, serializeLabels, starPoints, STROKE_DEFAULT, TOOLS, type Label,
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

describe('keyboard drawing', () => {
  it('places each tool\'s shape at the centre, inside the image and drawn far enough to keep', () => {
    for (const tool of TOOLS) {
      const p = placeAtCentre(tool, 400, 300);
      expect(isDrawn(tool, p)).toBe(true);
      expect(labelProblem({ ...rect(2), tool, points: p, description: 'x' }, 400, 300)).toBeNull();
    }
    expect(placeAtCentre('rect', 400, 300)).toEqual([150, 112.5, 250, 187.5]);
    expect(placeAtCentre('font', 400, 300)).toEqual([200, 150]);
  });

  it('moves a label, stopping at the image\'s edge', () => {
    const l = rect(2, [10, 10, 50, 40]);
    expect(moveLabel(l, 5, -3, 100, 100).points).toEqual([15, 7, 55, 37]);
    expect(moveLabel(l, -30, 0, 100, 100).points).toEqual([0, 10, 40, 40]);
    expect(moveLabel(l, 80, 80, 100, 100).points).toEqual([60, 70, 100, 100]);
    expect(labelBox(moveLabel(l, 0, 0, 100, 100))).toEqual({ x: 10, y: 10, w: 40, h: 30 });
  });

  it('resizes two-point shapes, curves and text notes', () => {
    expect(resizeLabel(rect(2, [10, 10, 50, 40]), 10, -5, 100, 100).points).toEqual([10, 10, 60, 35]);
    expect(resizeLabel(rect(2, [10, 10, 50, 40]), 80, 0, 100, 100).points).toEqual([10, 10, 100, 40]);
    // Not below three pixels.
    expect(resizeLabel(rect(2, [10, 10, 12, 11]), -2, -1, 100, 100).points).toEqual([10, 10, 12, 11]);
    const curve = { ...rect(3), tool: 'curve' as const, points: [0, 0, 10, 10, 20, 0] };
    expect(resizeLabel(curve, 20, 10, 100, 100).points).toEqual([0, 0, 20, 20, 40, 0]);
    const note = { ...rect(4), tool: 'font' as const, points: [5, 5], description: '病灶' };
    expect(resizeLabel(note, 0, 8, 100, 100).fontSize).toBe(16);
    expect(resizeLabel({ ...note, fontSize: 9 }, -8, 0, 100, 100).fontSize).toBe(8);
  });
});
