// The upload state machine (spec 2 §4): not uploaded, uploading, uploaded, failed,
// stopping, canceled; the user's actions stop, start, restart, cancel and the
// transfer's own events.

export type UploadState = 'idle' | 'uploading' | 'uploaded' | 'failed' | 'stopping' | 'canceled';
export type UserAction = 'stop' | 'start' | 'restart' | 'cancel';
export type UploadEvent = UserAction | 'stopped' | 'done' | 'error';

const table: Record<UploadState, Partial<Record<UploadEvent, UploadState>>> = {
  // not uploaded: new, queued, or stopped part-way (resumes where it stopped)
  idle: { start: 'uploading', cancel: 'canceled' },
  uploading: { stop: 'stopping', cancel: 'canceled', done: 'uploaded', error: 'failed' },
  // the transfer is being aborted; it becomes "not uploaded" once the request has ended
  stopping: { stopped: 'idle', cancel: 'canceled', done: 'uploaded', error: 'idle' },
  // restart resumes from the last byte the server has (or from scratch when it has none)
  failed: { restart: 'uploading', cancel: 'canceled' },
  // a canceled upload is deleted on the server; restart begins again from byte 0
  canceled: { restart: 'uploading' },
  uploaded: {},
};

/** The next state, or null when the event does not apply in this state. */
export function transition(state: UploadState, event: UploadEvent): UploadState | null {
  return table[state][event] ?? null;
}

/** The user actions offered in a state. */
export function actionsFor(state: UploadState): UserAction[] {
  return (['start', 'stop', 'restart', 'cancel'] as const).filter((a) => transition(state, a) !== null);
}
