import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer, jsonError } from '../../test/fakeServer';
import { session } from '../../lib/session';
import UserListPage from './UserListPage';

vi.mock('../../lib/passwordCipher', () => ({ encryptForServer: async (p: string) => `enc(${p})` }));

const user = (id: number, username: string, over: object = {}) => ({
  id, username, name: `医生${id}`, phone: '', email: '', work_no: '', status: 1, is_locked: false, locked_until: null, roles: ['expert'], role_configs: {},
  center_ids: [1], hospital_ids: [], centers: [{ id: 1, name: '华东中心' }], hospitals: [], last_login_at: null, created_at: '2026-11-20T08:00:00Z', updated_at: '2026-11-20T08:00:00Z', manageable: true, ...over,
});
const list = (rows: unknown[]) => new Response(JSON.stringify({ data: rows, meta: { pagination: { total: rows.length, current_page: 1, per_page: 20, total_page: 1 } } }), { headers: { 'Content-Type': 'application/json' } });

describe('UserListPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    session.clear();
  });

  it('lists users with tab counts, offers unlock only for locked users, shows shared users read-only and checks the password policy before sending', async () => {
    const server = fakeServer({
      'GET /api/user': () => list([user(1, 'expert'), user(2, 'locked1', { is_locked: true, locked_until: '2026-11-22T05:00:00Z' }), user(3, 'shared1', { manageable: false })]),
      'GET /api/user/count': () => ({ all: 2, enabled: 2, disabled: 0, locked: 1 }),
      'GET /api/role': () => [{ role: 'expert', name: '专家', en_name: 'Expert' }],
      'GET /api/center/list': () => list([{ id: 1, name: '华东中心' }]),
      'GET /api/hospital/list': () => list([]),
      'POST /api/user': () => jsonError(422, { message: '用户名已存在', errors: { username: ['用户名已存在'] } }),
    });
    session.signIn('tok', 1, false);
    renderAt(<UserListPage />, '/system/user', '/system/user');
    expect(await screen.findByText('locked1')).toBeInTheDocument();
    expect(within(screen.getByTestId('tab-locked')).getByText('1')).toBeInTheDocument();
    expect(within(screen.getByTestId('user-actions-locked1')).getByText('解除锁定')).toBeInTheDocument();
    expect(within(screen.getByTestId('user-actions-expert')).queryByText('解除锁定')).toBeNull();
    // A user shared with another center: shown, not managed.
    expect(screen.getByTestId('user-readonly-shared1')).toHaveTextContent('只读');
    expect(screen.queryByTestId('user-actions-shared1')).toBeNull();
    expect((await screen.findAllByText('专家')).length).toBeGreaterThan(0);

    fireEvent.click(screen.getByTestId('user-create'));
    const drawer = await screen.findByTestId('user-drawer');
    fireEvent.change(within(drawer).getByLabelText('用户名'), { target: { value: 'expert' } });
    fireEvent.change(within(drawer).getByLabelText('姓名'), { target: { value: '张三' } });
    fireEvent.change(within(drawer).getByLabelText('初始密码'), { target: { value: 'weak' } });
    fireEvent.click(screen.getByTestId('drawer-submit'));
    expect(await within(drawer).findByText('密码强度不足，请按提示设置')).toBeInTheDocument();
    expect(server.calls.some((r) => r.method === 'POST')).toBe(false);
  });
});
