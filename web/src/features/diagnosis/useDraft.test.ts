import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { EMPTY_DRAFT, asInput, pickDraft, sameDraft, useDraft, type DraftFields } from './useDraft';

const server: DraftFields = { ...EMPTY_DRAFT, opinion: 'server text' };

describe('useDraft', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('loads the server text and is clean', () => {
    const save = vi.fn(async () => undefined);
    const { result } = renderHook(() => useDraft({ key: 'c1', server, enabled: true, save }));
    expect(result.current.values.opinion).toBe('server text');
    expect(result.current.dirty).toBe(false);
  });

  it('is dirty after a change, keeps a local copy, and saves on demand', async () => {
    const save = vi.fn(async () => undefined);
    const { result } = renderHook(() => useDraft({ key: 'c2', server, enabled: true, save }));
    act(() => result.current.setField('microscopic', 'cells'));
    expect(result.current.dirty).toBe(true);
    expect(JSON.parse(localStorage.getItem('tp.diagnosis.draft.c2')!).microscopic).toBe('cells');
    await act(async () => {
      expect(await result.current.saveNow()).toBe(true);
    });
    expect(save).toHaveBeenCalledWith({ ...server, microscopic: 'cells' });
    expect(result.current.dirty).toBe(false);
    expect(localStorage.getItem('tp.diagnosis.draft.c2')).toBeNull();
  });

  it('autosaves every 30 s only when changed', async () => {
    const save = vi.fn(async () => undefined);
    const { result } = renderHook(() => useDraft({ key: 'c3', server, enabled: true, save }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(31_000);
    });
    expect(save).not.toHaveBeenCalled();
    act(() => result.current.setField('opinion', 'new opinion'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(20_000);
    });
    expect(save).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(save).toHaveBeenCalledTimes(1);
    expect(result.current.dirty).toBe(false);
  });

  it('does not save without the lock', async () => {
    const save = vi.fn(async () => undefined);
    const { result } = renderHook(() => useDraft({ key: 'c4', server, enabled: false, save }));
    act(() => result.current.setField('opinion', 'x'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(31_000);
      expect(await result.current.saveNow()).toBe(false);
    });
    expect(save).not.toHaveBeenCalled();
  });

  it('stays dirty and reports the error when saving fails', async () => {
    const onError = vi.fn();
    const save = vi.fn(async () => {
      throw new Error('offline');
    });
    const { result } = renderHook(() => useDraft({ key: 'c5', server, enabled: true, save, onError }));
    act(() => result.current.setField('opinion', 'keep me'));
    await act(async () => {
      expect(await result.current.saveNow()).toBe(false);
    });
    expect(onError).toHaveBeenCalled();
    expect(result.current.dirty).toBe(true);
    expect(localStorage.getItem('tp.diagnosis.draft.c5')).toContain('keep me');
  });

  it('restores unsaved local text over the server text after a reload', () => {
    localStorage.setItem('tp.diagnosis.draft.c6', JSON.stringify({ ...server, opinion: 'typed before crash' }));
    const save = vi.fn(async () => undefined);
    const { result } = renderHook(() => useDraft({ key: 'c6', server, enabled: true, save }));
    expect(result.current.values.opinion).toBe('typed before crash');
    expect(result.current.restored).toBe(true);
    expect(result.current.dirty).toBe(true);
    act(() => result.current.discard());
    expect(result.current.values.opinion).toBe('server text');
  });

  it('asks the browser before unloading with unsaved text', () => {
    const save = vi.fn(async () => undefined);
    const { result } = renderHook(() => useDraft({ key: 'c7', server, enabled: true, save }));
    const clean = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);
    act(() => result.current.setField('remark', 'r'));
    const dirty = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(dirty);
    expect(dirty.defaultPrevented).toBe(true);
  });

  it('inserts a template (replace or append)', () => {
    const save = vi.fn(async () => undefined);
    const { result } = renderHook(() => useDraft({ key: 'c8', server, enabled: true, save }));
    act(() => result.current.insert({ opinion: 'tpl', microscopic: 'm' }, 'append'));
    expect(result.current.values.opinion).toBe('server text\ntpl');
    expect(result.current.values.microscopic).toBe('m');
    act(() => result.current.insert({ opinion: 'only' }));
    expect(result.current.values.opinion).toBe('only');
  });

  it('saves unsaved text when the screen is left, with the save of that case', async () => {
    const saveA = vi.fn(async () => undefined);
    const saveB = vi.fn(async () => undefined);
    const { result, rerender, unmount } = renderHook((p: { key: string; save: () => Promise<undefined> }) => useDraft({ key: p.key, server, enabled: true, save: p.save }), {
      initialProps: { key: 'c9', save: saveA },
    });
    act(() => result.current.setField('opinion', 'leaving'));
    rerender({ key: 'c10', save: saveB });
    expect(saveA).toHaveBeenCalledWith({ ...server, opinion: 'leaving' });
    expect(saveB).not.toHaveBeenCalled();
    unmount();
  });
});

describe('frozen verdict in the draft', () => {
  it('is kept, compared and sent like the text', () => {
    const server = pickDraft({ opinion: 'x', frozen_verdict: 'malignant' });
    expect(server.frozen_verdict).toBe('malignant');
    expect(pickDraft({ opinion: 'x' }).frozen_verdict).toBe('');
    expect(sameDraft(server, { ...server, frozen_verdict: 'deferred' })).toBe(false);
    expect(asInput({ ...server, frozen_verdict: 'benign' }).frozen_verdict).toBe('benign');
  });
});
