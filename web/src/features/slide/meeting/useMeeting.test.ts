import { describe, expect, it } from 'vitest';
import { followPath, latestWins, layoutOf } from './useMeeting';

describe('following a meeting between one slide and a split view', () => {
  it('tells one slide from a split view and split views apart', () => {
    expect(layoutOf(7)).toBe('slide:7');
    expect(layoutOf(7, [])).toBe('slide:7');
    expect(layoutOf(7, [7, 9])).toBe('split:7,9');
    expect(layoutOf(7, [7, 9])).not.toBe(layoutOf(7, [7, 10]));
    expect(layoutOf(7, [7, 9])).not.toBe(layoutOf(7));
  });

  it('opens the page that shows the presenter’s view, in the meeting', () => {
    expect(followPath({ slide_id: 7 }, 3, 11)).toBe('/slide/view/7?case=3&meeting=11');
    expect(followPath({ slide_id: 7, split: [7, 9, 12] }, 3, 11)).toBe('/slide/compare?ids=7,9,12&case=3&meeting=11');
  });
});

describe('the participant list when two people join at once', () => {
  /** A load answered (or failed) when the test says. */
  function pending<T>() {
    let answer!: (v: T) => void;
    let fail!: (e: Error) => void;
    const promise = new Promise<T>((resolve, reject) => ((answer = resolve), (fail = reject)));
    return { load: () => promise, answer, fail };
  }

  it('drops an answer when the answer to a later request was applied already', async () => {
    const applied: string[] = [];
    const load = latestWins<string>((v) => applied.push(v));
    const first = pending<string>();
    const join = load(first.load);
    const reread = load(async () => 'four present');
    await reread;
    first.answer('three present');
    await join;
    expect(applied).toEqual(['four present']);
    await load(async () => 'three present');
    expect(applied).toEqual(['four present', 'three present']);
  });

  it('keeps an earlier answer when a later request fails, and applies answers in order as they come', async () => {
    const applied: string[] = [];
    const load = latestWins<string>((v) => applied.push(v));
    const first = pending<string>();
    const second = pending<string>();
    const third = pending<string>();
    const loads = [load(first.load), load(second.load), load(third.load)];
    first.answer('two present');
    third.fail(new Error('network'));
    second.answer('three present');
    const results = await Promise.allSettled(loads);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(applied).toEqual(['two present', 'three present']);
  });
});
