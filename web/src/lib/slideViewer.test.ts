import { createElement, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RENEW_EVERY_MS, renewGrant, useGrantRenewal, viewerKey, type ViewerInfo } from './slideViewer';

const post = vi.fn();
vi.mock('./api/client', () => ({ api: { POST: (...a: unknown[]) => post(...a) } }));

const info = { dzi_url: '/api/slides/7/g/1.5.abc/slide.dzi', expires_at: '2026-01-01T00:00:00Z' } as ViewerInfo;
const reply = (url: string) => ({ data: { data: { url, iiif_url: '', expires_at: '2026-01-01T00:10:00Z' } }, response: new Response() });

describe('renewGrant', () => {
  let qc: QueryClient;
  beforeEach(() => {
    qc = new QueryClient();
    qc.setQueryData(viewerKey(7), info);
    post.mockReset();
  });
  it('keeps the URLs and moves the expiry when the grant is the same', async () => {
    post.mockResolvedValue(reply('/api/slides/7/g/1.5.abc'));
    await renewGrant(qc, 7);
    expect(qc.getQueryData<ViewerInfo>(viewerKey(7))).toEqual({ ...info, expires_at: '2026-01-01T00:10:00Z' });
  });
  it('refetches the viewer when the server signs with a new key', async () => {
    post.mockResolvedValue(reply('/api/slides/7/g/2.5.xyz'));
    await renewGrant(qc, 7);
    expect(qc.getQueryState(viewerKey(7))?.isInvalidated).toBe(true);
  });
  it('leaves everything as it was when the renewal fails', async () => {
    post.mockResolvedValue({ error: { message: 'gone' }, response: new Response(null, { status: 401 }) });
    await renewGrant(qc, 7);
    expect(qc.getQueryData(viewerKey(7))).toBe(info);
  });
});

describe('useGrantRenewal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    post.mockReset();
    post.mockResolvedValue(reply('/api/slides/7/g/1.5.abc'));
  });
  const mount = () => {
    const qc = new QueryClient();
    qc.setQueryData(viewerKey(7), info);
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: qc }, children);
    return renderHook(() => useGrantRenewal(7), { wrapper });
  };
  it('renews while the user works in the viewer', () => {
    const h = mount();
    window.dispatchEvent(new Event('wheel'));
    act(() => void vi.advanceTimersByTime(RENEW_EVERY_MS));
    expect(post).toHaveBeenCalledTimes(1);
    h.unmount();
    vi.useRealTimers();
  });
  it('lets an untouched viewer lapse, so it does not keep the session alive, and renews on the first touch after', () => {
    const h = mount();
    act(() => void vi.advanceTimersByTime(3 * RENEW_EVERY_MS));
    expect(post).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('pointermove'));
    expect(post).toHaveBeenCalledTimes(1);
    h.unmount();
    vi.useRealTimers();
  });
});
