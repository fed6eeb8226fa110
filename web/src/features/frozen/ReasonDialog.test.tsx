import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer } from '../../test/fakeServer';
import { ReasonDialog } from './dialogs';
import type { Appointment } from './api';

const appt = { id: 9, phase: 'applying', actions: ['recall'] } as unknown as Appointment;

// The site's withdrawal of a frozen-section appointment follows
// rollback_need_check: off, the dialog says it is withdrawn at once and the
// result is what the server answered (on, the texts stay "the center
// confirms" / "withdrawal requested").
describe('ReasonDialog (recall)', () => {
  it('says it is withdrawn at once when the setting is off, as the server answers', async () => {
    const { calls } = fakeServer({
      'GET /api/config/setting': () => ({ rollback_need_check: false }),
      'POST /api/frozen/appointment/9/recall': () => ({ ...appt, is_recall: 2, phase: 'recalled' }),
    });
    renderAt(<ReasonDialog target={appt} kind="recall" onClose={() => undefined} />);
    expect(await screen.findByText('确定撤回该预约？将立即撤回。')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    expect(await screen.findByText('预约已撤回')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });
});
