import { describe, expect, it, vi } from 'vitest';
import { createSaveQueue } from './saveQueue';

/** A save whose answers the test gives one by one. */
function saver() {
  const sent: string[] = [];
  const answers: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  const save = (v: string) => {
    sent.push(v);
    return new Promise<void>((resolve, reject) => answers.push({ resolve, reject }));
  };
  const settle = async (ok = true) => {
    const a = answers.shift()!;
    if (ok) a.resolve();
    else a.reject(new Error('refused'));
    await Promise.resolve();
    await Promise.resolve();
  };
  return { sent, save, settle };
}

describe('createSaveQueue', () => {
  it('saves one value at a time, then only the latest of those pushed meanwhile', async () => {
    const s = saver();
    const onIdle = vi.fn();
    const onBusy = vi.fn();
    const q = createSaveQueue(s.save, { onIdle, onBusy });
    q.push('moved');
    expect(s.sent).toEqual(['moved']);
    q.push('deleted');
    q.push('deleted and added');
    expect(s.sent).toEqual(['moved']); // nothing sent beside a save on its way
    expect(q.busy()).toBe(true);
    await s.settle();
    expect(s.sent).toEqual(['moved', 'deleted and added']);
    expect(onIdle).not.toHaveBeenCalled(); // something newer was waiting
    await s.settle();
    expect(onIdle).toHaveBeenCalledExactlyOnceWith('deleted and added');
    expect(q.busy()).toBe(false);
    expect(onBusy.mock.calls).toEqual([[true], [false]]);
  });

  it('drops what waited when a save fails, and saves again on the next push', async () => {
    const s = saver();
    const onError = vi.fn();
    const q = createSaveQueue(s.save, { onError });
    q.push('a');
    q.push('a+b');
    await s.settle(false);
    expect(onError).toHaveBeenCalledOnce();
    expect(s.sent).toEqual(['a']);
    expect(q.busy()).toBe(false);
    q.push('c');
    expect(s.sent).toEqual(['a', 'c']);
  });
});
