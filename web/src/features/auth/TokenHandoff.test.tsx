import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../lib/i18n';
import { session } from '../../lib/session';
import { fakeServer } from '../../test/fakeServer';
import { TokenHandoff } from './TokenHandoff';

const user = (id: number, username: string, name: string) => ({ user: { id, username, name, phone: '', email: '', work_no: '' }, roles: [], centers: [], hospitals: [], settings: {} });

function mount(reload: () => void) {
  render(
    <I18nextProvider i18n={i18n}>
      <AntApp>
        <TokenHandoff onSwitch={reload} />
      </AntApp>
    </I18nextProvider>,
  );
}

describe('?token= while someone else is signed in', () => {
  const reload = vi.fn();
  beforeEach(() => {
    session.clear();
    reload.mockReset();
    fakeServer({ 'GET /api/auth/info': (req) => (req.headers.get('Authorization') === 'Bearer mine' ? user(1, 'site', '李护士') : user(2, 'expert', '王医生')) });
    session.signIn('mine', 1, true);
    session.offerToken('theirs');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('names both users, and cancel keeps the signed-in session', async () => {
    mount(reload);
    expect(await screen.findByText(/李护士 \(site\).*王医生 \(expert\)/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('switch-account-cancel'));
    expect(session.token()).toBe('mine');
    expect(reload).not.toHaveBeenCalled();
  });

  it('switches on OK', async () => {
    mount(reload);
    fireEvent.click(await screen.findByTestId('switch-account-ok'));
    await waitFor(() => expect(session.token()).toBe('theirs'));
    expect(reload).toHaveBeenCalled();
  });
});
