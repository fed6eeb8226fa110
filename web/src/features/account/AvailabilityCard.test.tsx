import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer } from '../../test/fakeServer';
import { session } from '../../lib/session';
import { AvailabilityCard } from './AvailabilityCard';

describe('availability card', () => {
  beforeEach(() => session.signIn('token', 3, false));
  afterEach(() => session.clear());

  it('saves the away note the expert types', async () => {
    let state: Record<string, unknown> = { away: true };
    const server = fakeServer({
      'GET /api/user/diagnosis/status': () => state,
      'PATCH /api/user/diagnosis/status': async (req) => (state = (await req.json()) as Record<string, unknown>),
    });
    renderAt(<AvailabilityCard />);
    fireEvent.change(await screen.findByTestId('availability-note'), { target: { value: '外出开会' } });
    fireEvent.click(screen.getByTestId('availability-save'));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(state).toEqual({ away: true, away_note: '外出开会', away_until: '' });
  });
});
