import { describe, expect, it } from 'vitest';
import type { Annotation } from './annotations';
import { compose, hitTest, invert, visibleImageBox } from './paint';

const a = (id: number, tool: Annotation['tool'], points: { x: number; y: number }[]): Annotation => ({ id, tool, points, color: '#027AFF', lineWidth: 2, description: '' });

describe('annotation picking and culling', () => {
  it('picks the top-most shape under the point', () => {
    const list = [a(2, 'rect', [{ x: 0, y: 0 }, { x: 100, y: 100 }]), a(3, 'ellipse', [{ x: 40, y: 40 }, { x: 60, y: 60 }]), a(4, 'line', [{ x: 200, y: 0 }, { x: 300, y: 0 }])];
    expect(hitTest(list, { x: 50, y: 50 }, 1)?.id).toBe(3);
    expect(hitTest(list, { x: 10, y: 10 }, 1)?.id).toBe(2);
    expect(hitTest(list, { x: 250, y: 2 }, 3)?.id).toBe(4);
    expect(hitTest(list, { x: 250, y: 10 }, 3)).toBeNull();
  });
  it('finds the visible image area under zoom and 90° rotation', () => {
    // scale 2, rotated 90°: image (x, y) → screen (-2y + 500, 2x)
    const box = visibleImageBox([0, 2, -2, 0, 500, 0], 500, 400);
    expect(box).toEqual({ x0: 0, y0: 0, x1: 200, y1: 250 });
  });
});

describe('cache transforms', () => {
  it('compose and invert are affine maps in canvas order', () => {
    const a: [number, number, number, number, number, number] = [2, 0.5, -0.5, 2, 10, 20];
    const b: [number, number, number, number, number, number] = [0, 1, -1, 0, 3, 4];
    const apply = (m: number[], x: number, y: number) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
    const [x1, y1] = apply(b, 7, 9);
    const ab = compose(a, b);
    expect(apply(ab, 7, 9)[0]).toBeCloseTo(apply(a, x1, y1)[0]);
    expect(apply(ab, 7, 9)[1]).toBeCloseTo(apply(a, x1, y1)[1]);
    const id = compose(a, invert(a));
    [1, 0, 0, 1, 0, 0].forEach((v, i) => expect(id[i]).toBeCloseTo(v));
  });
});
