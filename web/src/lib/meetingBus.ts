// Meeting events of the live stream (event "meeting"), for the open viewer:
// LiveEvents publishes, the meeting bar listens.
export interface MeetingEvent {
  meeting_id: number;
  kind: 'view' | 'pointer' | 'members' | 'annotations' | 'ended';
  from: number;
  name?: string;
  signal?: { kind: string; slide_id: number; x?: number; y?: number; zoom?: number; rotation?: number; split?: number[] | null; hide?: boolean; sent?: number };
}

const listeners = new Set<(e: MeetingEvent) => void>();

export function onMeetingEvent(fn: (e: MeetingEvent) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function emitMeetingEvent(e: MeetingEvent): void {
  listeners.forEach((l) => l(e));
}
