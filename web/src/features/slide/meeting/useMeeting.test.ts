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
  it('keeps the answer to the latest request, whichever answer comes last', async () => {
    const applied: string[] = [];
    const load = latestWins<string>((v) => applied.push(v));
    let answerJoin!: (v: string) => void;
    const join = load(() => new Promise((resolve) => (answerJoin = resolve)));
    const reread = load(async () => 'four present');
    await reread;
    answerJoin('three present');
    await join;
    expect(applied).toEqual(['four present']);
    await load(async () => 'three present');
    expect(applied).toEqual(['four present', 'three present']);
  });
});
