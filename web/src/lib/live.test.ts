import { describe, expect, it, vi } from 'vitest';
import { openLive } from './live';

/** A stand-in for EventSource that the test drives. */
class FakeSource {
  static opened: FakeSource[] = [];
  listeners = new Map<string, (e: MessageEvent) => void>();
  onerror: (() => void) | null = null;
  closed = false;
  constructor(public url: string) {
    FakeSource.opened.push(this);
  }
  addEventListener(name: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(name, fn);
  }
  close() {
    this.closed = true;
  }
  emit(name: string, data: string, lastEventId = '') {
    this.listeners.get(name)?.(new MessageEvent(name, { data, lastEventId }));
  }
}

describe('openLive', () => {
  it('opens with a ticket and reconnects with a new one and the last event id', async () => {
    vi.useFakeTimers();
    FakeSource.opened = [];
    let n = 0;
    const seen: string[] = [];
    const live = openLive({ ticket: async () => `t${++n}`, onEvent: (e) => seen.push(`${e.event}:${e.id ?? ''}`), EventSource: FakeSource as unknown as typeof EventSource });
    await vi.advanceTimersByTimeAsync(0);
    const first = FakeSource.opened[0]!;
    expect(first.url).toBe('/api/events?ticket=t1');
    first.emit('hello', '{"unread":0}');
    first.emit('notification', '{"id":7}', '7');
    first.emit('changed', '{"topics":["cases"]}');
    expect(seen).toEqual(['hello:', 'notification:7', 'changed:']);
    first.onerror?.();
    expect(first.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(1300);
    expect(FakeSource.opened[1]!.url).toBe('/api/events?ticket=t2&last_event_id=7');
    live.stop();
    expect(FakeSource.opened[1]!.closed).toBe(true);
    vi.useRealTimers();
  });

  it('stops when the server ends the stream, and opens nothing when signed out', async () => {
    FakeSource.opened = [];
    const onEnd = vi.fn();
    openLive({ ticket: async () => 'x', onEvent: () => {}, onEnd, EventSource: FakeSource as unknown as typeof EventSource });
    await vi.waitFor(() => expect(FakeSource.opened).toHaveLength(1));
    FakeSource.opened[0]!.emit('end', '');
    expect(onEnd).toHaveBeenCalled();
    expect(FakeSource.opened[0]!.closed).toBe(true);
    openLive({ ticket: async () => null, onEvent: () => {}, EventSource: FakeSource as unknown as typeof EventSource });
    await new Promise((r) => setTimeout(r, 10));
    expect(FakeSource.opened).toHaveLength(1);
  });
});
