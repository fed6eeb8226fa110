import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer } from '../../test/fakeServer';
import { ArriveDialog } from './dialogs';
import type { Appointment } from './api';

// The client refuses a repeated write to the same URL for a while: each test arrives its own appointment.
const appt = (id: number) => ({ id, center_id: 4, patient_name: '钱冰冻', specimen_site: '乳腺肿物', actions: ['arrive'] }) as unknown as Appointment;

const prefill = {
  library_id: 2, center_id: 4, pathology_number: 'BD2026-0001', original_pathology_number: 'FZ000009', name: '钱冰冻',
  specimens: [{ name: '乳腺肿物', part: '乳腺肿物', specimen_type: 'ex_slide', count: 1, blocks: [{ name: 'F1' }] }],
};

function serve(id: number) {
  return fakeServer({
    [`GET /api/frozen/appointment/${id}/case`]: () => prefill,
    'GET /api/consultation/form_options': (_, url) => (url.searchParams.get('center_id') === '4' ? { routine_fixed: '10%中性福尔马林', cell_fixed: '95%乙醇', infectious_specimen: [] } : {}),
    [`POST /api/frozen/appointment/${id}/arrive`]: () => ({ ...appt(id), expert_name: '张建国' }),
  });
}

const sent = async (calls: Request[]) => {
  await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
  return (await calls.find((c) => c.method === 'POST')!.clone().json()).case;
};

describe('ArriveDialog', () => {
  it("shows the center's default fixative as the placeholder and leaves it to the server", async () => {
    const { calls } = serve(9);
    renderAt(<ArriveDialog target={appt(9)} onClose={() => {}} />, '/', '*');
    await waitFor(() => expect(screen.getByTestId('frozen-fixative')).toHaveAttribute('placeholder', '留空则为：10%中性福尔马林'));
    await waitFor(() => expect(screen.getByTestId('frozen-pathology-number')).toHaveValue('BD2026-0001'));
    fireEvent.click(screen.getByRole('button', { name: /提交冰冻病例/ }));
    const body = await sent(calls);
    expect(body.specimens).toEqual([{ ...prefill.specimens[0], fixative: '' }]);
  });

  it('sends a fixative the site typed', async () => {
    const { calls } = serve(10);
    renderAt(<ArriveDialog target={appt(10)} onClose={() => {}} />, '/', '*');
    await waitFor(() => expect(screen.getByTestId('frozen-pathology-number')).toHaveValue('BD2026-0001'));
    fireEvent.change(screen.getByTestId('frozen-fixative'), { target: { value: ' Bouin液 ' } });
    fireEvent.click(screen.getByRole('button', { name: /提交冰冻病例/ }));
    const body = await sent(calls);
    expect(body.specimens[0].fixative).toBe('Bouin液');
    expect(body.pathology_number).toBe('BD2026-0001');
  });
});
