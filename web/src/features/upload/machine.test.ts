import { describe, expect, it } from 'vitest';
import { actionsFor, transition, type UploadEvent, type UploadState } from './machine';

const run = (from: UploadState, events: UploadEvent[]) => events.reduce<UploadState | null>((s, e) => (s ? transition(s, e) : null), from);

describe('upload state machine', () => {
  it('start → stop → stopped → start → done', () => {
    expect(run('idle', ['start', 'stop', 'stopped', 'start', 'done'])).toBe('uploaded');
  });
  it('fails and restarts', () => {
    expect(run('idle', ['start', 'error'])).toBe('failed');
    expect(run('idle', ['start', 'error', 'restart', 'done'])).toBe('uploaded');
  });
  it('cancels from not uploaded, uploading, stopping and failed; restarts from canceled', () => {
    for (const s of ['idle', 'uploading', 'stopping', 'failed'] as const) expect(transition(s, 'cancel')).toBe('canceled');
    expect(transition('canceled', 'restart')).toBe('uploading');
  });
  it('refuses actions that do not apply', () => {
    expect(transition('uploaded', 'cancel')).toBeNull();
    expect(transition('uploaded', 'restart')).toBeNull();
    expect(transition('idle', 'stop')).toBeNull();
    expect(transition('uploading', 'start')).toBeNull();
    expect(transition('canceled', 'start')).toBeNull();
    expect(transition('failed', 'stop')).toBeNull();
  });
  it('a finish during stopping still counts', () => {
    expect(transition('stopping', 'done')).toBe('uploaded');
  });
  it('offers the right buttons', () => {
    expect(actionsFor('idle')).toEqual(['start', 'cancel']);
    expect(actionsFor('uploading')).toEqual(['stop', 'cancel']);
    expect(actionsFor('failed')).toEqual(['restart', 'cancel']);
    expect(actionsFor('canceled')).toEqual(['restart']);
    expect(actionsFor('stopping')).toEqual(['cancel']);
    expect(actionsFor('uploaded')).toEqual([]);
  });
});
