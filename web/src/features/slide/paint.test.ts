import { describe, expect, it } from 'vitest';
import type { Annotation } from './annotations';
import { hitTest, paint, visibleImageBox } from './paint';

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

describe('painting', () => {
  it('batches visible shapes by colour and width into one stroke each, skipping text, the selected and off-screen shapes', () => {
    const calls: string[] = [];
    const ctx = new Proxy(
      { canvas: { width: 100, height: 100 } } as Record<string, unknown>,
      {
        get: (t, k: string) => (k in t ? t[k] : (...args: unknown[]) => void calls.push(`${k}${k === 'stroke' || k === 'fill' ? '' : `(${args.length})`}`)),
        set: (t, k: string, v) => ((t[k] = v), true),
      },
    ) as unknown as CanvasRenderingContext2D;
    const red = (id: number, tool: Annotation['tool'], pts: { x: number; y: number }[]) => ({ ...a(id, tool, pts), color: '#FF6261' });
    const list = [
      a(2, 'rect', [{ x: 0, y: 0 }, { x: 10, y: 10 }]),
      red(3, 'ellipse', [{ x: 20, y: 20 }, { x: 40, y: 30 }]),
      a(4, 'polygon', [{ x: 0, y: 0 }, { x: 30, y: 0 }, { x: 15, y: 20 }]),
      red(5, 'arrow', [{ x: 0, y: 50 }, { x: 40, y: 50 }]),
      a(6, 'text', [{ x: 5, y: 5 }]),
      a(7, 'rect', [{ x: 5000, y: 5000 }, { x: 5010, y: 5010 }]),
      a(8, 'rect', [{ x: 1, y: 1 }, { x: 9, y: 9 }]),
    ];
    const drawn = paint(ctx, list, [1, 0, 0, 1, 0, 0], 100, 100, 1, 8);
    expect(drawn).toBe(4);
    expect(calls.filter((c) => c === 'stroke').length).toBe(2);
    expect(calls.filter((c) => c === 'fill').length).toBe(1);
    expect(calls.filter((c) => c.startsWith('rect(')).length).toBe(1);
  });
});
