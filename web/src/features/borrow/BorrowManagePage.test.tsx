import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer } from '../../test/fakeServer';
import { session } from '../../lib/session';
import BorrowManagePage from './BorrowManagePage';

const info = { user: { id: 1, username: 'center', name: '周敏', phone: '', email: '', work_no: '', must_change_password: false }, roles: [{ role: 'center_admin' }], centers: [], hospitals: [], settings: { idle_timeout_minutes: 30 } };
const list = (rows: unknown[]) => new Response(JSON.stringify({ data: rows, meta: { pagination: { total: rows.length, current_page: 1, per_page: 20, total_page: 1 } } }), { headers: { 'Content-Type': 'application/json' } });
const loan = {
  id: 7, borrow_no: 'JY0007', status: 'returned', overdue: false, consult_id: 3, consult_no: 'TP0003', patient_name: '患者3', hospital_name: '明州一院', type: 'hospital',
  borrower: '王医生', slides: 1, blocks: 1, due_date: '2026-12-28', created_at: '2026-11-28T01:00:00Z', actions: ['slip'],
};
const archived = { consult_id: 3, consult_no: 'TP0003', patient_name: '患者3', hospital_name: '明州一院', slide_count: 1, status: 'to_receive', on_loan: false, actions: ['receive'] };

describe('/borrow/manage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    session.clear();
  });

  // React Router shows a new address in a transition, so until the archive has rendered the loans
  // list still shows, with the query it last rendered. A search typed into it meanwhile (the walk
  // searched right after its click) must not put the loans view back.
  it('keeps the switch to the archive when the loans list is searched before the archive has rendered', async () => {
    const server = fakeServer({
      'GET /api/auth/info': () => info,
      'GET /api/borrow/lists': () => list([loan]),
      'GET /api/borrow/count': () => ({ all: 1, returned: 1 }),
      'GET /api/archive/lists': () => list([archived]),
      'GET /api/archive/count': () => ({ all: 1, to_receive: 1 }),
    });
    session.signIn('tok', 1, false);
    const { router } = renderAt(<BorrowManagePage />, '/borrow/manage?page=1&page_size=20&search=TP0003', '/borrow/manage');
    expect(await screen.findByText('JY0007')).toBeInTheDocument();

    act(() => {
      fireEvent.click(screen.getByTestId('borrow-view-archive'));
      const box = screen.getByTestId('list-search');
      fireEvent.change(box, { target: { value: 'TP0003' } });
      fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    });

    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('view')).toBe('archive'));
    expect(await screen.findByTestId('list-borrow.archive')).toBeInTheDocument();
    expect(screen.queryByTestId('list-borrow.loans')).toBeNull();
    // The archive answers the search the walk waits for.
    await waitFor(() => expect(server.calls.some((r) => r.url.includes('/api/archive/lists') && new URL(r.url).searchParams.get('search') === 'TP0003')).toBe(true));
  });
});
