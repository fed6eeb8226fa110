import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useContext } from 'react';
import { fakeServer } from '../../test/fakeServer';
import { session } from '../../lib/session';
import { BadgeCountContext } from '../../lib/badges';
import { LiveEvents } from './LiveEvents';

class FakeSource {
  static last: FakeSource | null = null;
  listeners = new Map<string, (e: MessageEvent) => void>();
  onerror: (() => void) | null = null;
  constructor(public url: string) {
    FakeSource.last = this;
  }
  addEventListener(name: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(name, fn);
  }
  close() {}
  emit(name: string, data: string, lastEventId = '') {
    this.listeners.get(name)?.(new MessageEvent(name, { data, lastEventId }));
  }
}

function Badge() {
  return <span data-testid="unread">{useContext(BadgeCountContext).message_unread ?? 0}</span>;
}

describe('LiveEvents', () => {
  it('puts a new notification in the bell and refetches what a hint names', async () => {
    vi.stubGlobal('EventSource', FakeSource);
    fakeServer({
      'POST /api/events/ticket': () => ({ ticket: 'tk', expires_in: 60 }),
      'GET /api/message/bell': () => ({ unread: 0, latest: [] }),
    });
    session.signIn('token', 1, false);
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const cases = vi.fn(async () => []);
    qc.setQueryDefaults(['consultation'], { queryFn: cases });
    const router = createMemoryRouter([{ element: <LiveEvents />, children: [{ path: '/', element: <Badge /> }] }]);
    const view = render(
      <QueryClientProvider client={qc}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(FakeSource.last?.url).toBe('/api/events?ticket=tk'));
    FakeSource.last!.emit('notification', JSON.stringify({ id: 9, title: '病例已分配给您', kind: 'case', level: 'normal', unread: 3 }), '9');
    await waitFor(() => expect(view.getByTestId('unread')).toHaveTextContent('3'));
    expect(qc.getQueryData<{ latest: { id: number }[] }>(['message', 'bell'])?.latest[0]?.id).toBe(9);
    const spy = vi.spyOn(qc, 'invalidateQueries');
    FakeSource.last!.emit('changed', JSON.stringify({ topics: ['cases'] }));
    FakeSource.last!.emit('changed', JSON.stringify({ topics: ['cases'] }));
    await waitFor(() => expect(spy).toHaveBeenCalledWith({ queryKey: ['consultation'] }));
    expect(spy).toHaveBeenCalledWith({ queryKey: ['diagnosis'] });
    // Two hints together: one refetch.
    expect(spy.mock.calls.filter(([a]) => JSON.stringify(a) === JSON.stringify({ queryKey: ['consultation'] }))).toHaveLength(1);
    session.clear();
    vi.unstubAllGlobals();
  });
});
