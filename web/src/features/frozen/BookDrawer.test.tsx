import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer } from '../../test/fakeServer';
import { BookDrawer } from './BookDrawer';
import type { Appointment } from './api';

const returned = {
  id: 7, center_id: 1, hospital_id: 3, patient_name: '赵敏', gender: 'female', age: '47', operation_at: '2099-01-05T02:30:00Z',
  operating_room: 'OR-5', surgeon: '陈医生', phone: '13800005678', specimen_site: '乳腺右侧肿物', clinical_question: '良恶性？',
  status: 101, return_reason: '当日无值班专家，请改约', actions: ['resubmit'],
} as unknown as Appointment;

describe('BookDrawer', () => {
  it('changes a returned appointment and sends it again', async () => {
    const { calls } = fakeServer({
      'GET /api/auth/info': () => ({ user: { id: 2, name: '李娜' }, roles: [{ role: 'site' }], hospitals: [{ id: 3, name: '明州一院' }], centers: [{ id: 1, name: '华东中心' }] }),
      'GET /api/hospital/3': () => ({ id: 3, centers: [{ id: 1, name: '华东中心' }] }),
      'PUT /api/frozen/appointment/7': () => ({ ...returned, status: 99 }),
    });
    renderAt(<BookDrawer open returned={returned} onClose={() => {}} />, '/', '*');
    expect(await screen.findByTestId('frozen-returned-reason')).toHaveTextContent('当日无值班专家，请改约');
    await waitFor(() => expect(screen.getByTestId('frozen-patient')).toHaveValue('赵敏'));
    fireEvent.change(screen.getByTestId('frozen-room'), { target: { value: 'OR-7' } });
    fireEvent.click(screen.getByTestId('drawer-submit'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = await calls.find((c) => c.method === 'PUT')!.clone().json();
    expect(body).toMatchObject({ center_id: 1, patient_name: '赵敏', operating_room: 'OR-7', operation_at: '2099-01-05T02:30:00.000Z' });
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
