import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../test/render';
import { fakeServer, jsonError } from '../../test/fakeServer';
import { session } from '../../lib/session';
import RegisterPage from './RegisterPage';

const info = { user: { id: 3, username: 'site', name: '李娜', phone: '', email: '', work_no: '' }, roles: [{ role: 'site', config: {} }], centers: [], hospitals: [{ id: 1, name: '明州一院' }], settings: { idle_timeout_minutes: 30 } };
const hospital = { id: 1, name: '明州一院', expert_select: 1, center_ids: [2], centers: [{ id: 2, name: '华东中心' }], default_expert_id: null };

function start(extra: Record<string, () => unknown> = {}) {
  const server = fakeServer({
    'GET /api/auth/info': () => info,
    'GET /api/hospital/1': () => hospital,
    'GET /api/config/library': () => [],
    'GET /api/slides/uploads': () => [],
    'GET /api/consultation/resources/0/exp_list/center': () => [{ id: 9, name: '王专家' }],
    ...extra,
  });
  renderAt(<RegisterPage />, '/case/register/new', '/case/register/:id');
  return server;
}

/** Enters a whole value at once, as a paste does: the form re-renders once, not once a key. */
async function fill(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, value: string) {
  await user.click(input);
  await user.paste(value);
}

describe('registration form', () => {
  beforeEach(() => session.signIn('token', 3, false));
  afterEach(() => {
    vi.unstubAllGlobals();
    session.clear();
  });

  it('checks phone, ID number check digit and age on the client before anything is sent', async () => {
    const server = start();
    const user = userEvent.setup();
    await fill(user, await screen.findByTestId('phone-input'), '12812345678');
    await fill(user, screen.getByTestId('id-number-input'), '110105194912310029');
    await fill(user, screen.getByTestId('age-input'), '4.5');
    await user.click(screen.getByTestId('save-case'));
    expect(await screen.findByText('电话格式不正确（手机 11 位或座机号码）')).toBeInTheDocument();
    expect(await screen.findByText('身份证号不正确（18 位，末位校验码须正确）')).toBeInTheDocument();
    // The age's message is shown by its enclosing item (with the unit), one render later.
    expect(await screen.findByText(/年龄须为整数/)).toBeInTheDocument();
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);

    // A valid ID card fills in the birthday and sex; the corrected fields lose their messages.
    await user.clear(screen.getByTestId('phone-input'));
    await fill(user, screen.getByTestId('phone-input'), '13812345678');
    await user.clear(screen.getByTestId('id-number-input'));
    await fill(user, screen.getByTestId('id-number-input'), '11010519491231002X');
    await user.tab();
    await waitFor(() => expect(screen.queryByText('电话格式不正确（手机 11 位或座机号码）')).toBeNull());
    await waitFor(() => expect(screen.queryByText('身份证号不正确（18 位，末位校验码须正确）')).toBeNull());
    expect(screen.getByDisplayValue('1949-12-31')).toBeInTheDocument();
  });

  it('shows the server field errors on the fields (specimens by index) and in a summary', async () => {
    start({
      'POST /api/consultation/draft': () => jsonError(422, { message: '数据校验失败', errors: { phone: ['号码已停用'], 'specimens.0.name': ['标本名称不能为空'] } }),
    });
    const user = userEvent.setup();
    await fill(user, await screen.findByTestId('phone-input'), '13812345678');
    await user.click(screen.getByTestId('save-draft'));
    await waitFor(() => expect(screen.getAllByText('号码已停用')).toHaveLength(2));
    await waitFor(() => expect(screen.getAllByText('标本名称不能为空')).toHaveLength(2));
  });
});
