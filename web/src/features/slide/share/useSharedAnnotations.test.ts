import { createElement, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider, focusManager } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOTATIONS_FRESH_MS, useSharedAnnotations } from './useSharedAnnotations';

const URL_1 = '/api/share/v/t/slides/1/annotations';
const label = (description: string) => ({ id: 9, tool: 'rect', points: [], color: '#f00', lineWidth: 2, description });
const fetchMock = vi.fn();

describe('useSharedAnnotations', () => {
  let qc: QueryClient;
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // As in the app: no re-read on focus unless a query asks for it.
    qc = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 0 } } });
    fetchMock.mockReset();
    fetchMock.mockImplementation(async () => new Response(JSON.stringify({ data: [{ labels: [label(`read ${fetchMock.mock.calls.length}`)] }] })));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });
  const mount = (url: string | undefined) => {
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: qc }, children);
    return renderHook(() => useSharedAnnotations(url), { wrapper });
  };
  const refocus = () =>
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });

  it('reads everyone’s labels with ids of their own', async () => {
    const h = mount(URL_1);
    await waitFor(() => expect(h.result.current.data).toEqual([{ ...label('read 1'), id: -1 }]));
  });
  it('reads again when the window gets the focus back after a while, not at once', async () => {
    const h = mount(URL_1);
    await waitFor(() => expect(h.result.current.data?.[0]?.description).toBe('read 1'));
    refocus();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    act(() => void vi.advanceTimersByTime(ANNOTATIONS_FRESH_MS + 1));
    refocus();
    await waitFor(() => expect(h.result.current.data?.[0]?.description).toBe('read 2'));
  });
  it('reads again when the slide is shown again, fresh or not', async () => {
    const first = mount(URL_1);
    await waitFor(() => expect(first.result.current.data?.[0]?.description).toBe('read 1'));
    first.unmount();
    const again = mount(URL_1);
    await waitFor(() => expect(again.result.current.data?.[0]?.description).toBe('read 2'));
  });
  it('shows nothing once the link has ended', async () => {
    fetchMock.mockResolvedValue(new Response('{}', { status: 404 }));
    const h = mount(URL_1);
    await waitFor(() => expect(h.result.current.data).toEqual([]));
  });
  it('reads nothing without a URL', () => {
    mount(undefined);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
