// Meeting events of the live stream (event "meeting"), for the open viewer:
// LiveEvents publishes, the meeting bar listens.
import type { ApiBody } from './api/types';

export interface MeetingEvent {
  meeting_id: number;
  kind: 'view' | 'pointer' | 'members' | 'annotations' | 'ended';
  from: number;
  name?: string;
  /** The signal sent (for annotations: the slide whose annotations were saved). */
  signal?: Omit<ApiBody<'/api/consultation/meeting/{id}/signal', 'post'>, 'kind'> & { kind: string };
}

const listeners = new Set<(e: MeetingEvent) => void>();

export function onMeetingEvent(fn: (e: MeetingEvent) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function emitMeetingEvent(e: MeetingEvent): void {
  listeners.forEach((l) => l(e));
}
