// One image's label set is saved whole (an idempotent PUT). The editor keeps
// editing while a save is on its way: each change is pushed here, saves run
// one at a time, and a set pushed during a save is sent after it — only the
// latest of those, since it holds every earlier change. Nothing is lost,
// nothing is sent twice, and an older set never lands after a newer one.

export interface SaveQueue<T> {
  /** Saves value after the save on its way, replacing any value still waiting. */
  push(value: T): void;
  /** True while a save is on its way or waiting. */
  busy(): boolean;
}

export interface SaveQueueEvents<T> {
  /** A save succeeded and nothing newer waits. */
  onIdle?: (saved: T) => void;
  /** A save failed; whatever waited is dropped (it held the failed change too). */
  onError?: (e: unknown) => void;
  /** Saving began or ended (for what must wait until the labels are saved). */
  onBusy?: (busy: boolean) => void;
}

export function createSaveQueue<T>(save: (value: T) => Promise<unknown>, events: SaveQueueEvents<T> = {}): SaveQueue<T> {
  let running = false;
  let waiting: { value: T } | null = null;
  const run = async () => {
    running = true;
    events.onBusy?.(true);
    while (waiting) {
      const { value } = waiting;
      waiting = null;
      try {
        await save(value);
        if (!waiting) events.onIdle?.(value);
      } catch (e) {
        waiting = null;
        events.onError?.(e);
      }
    }
    running = false;
    events.onBusy?.(false);
  };
  return {
    push(value) {
      waiting = { value };
      if (!running) void run();
    },
    busy: () => running || waiting !== null,
  };
}
