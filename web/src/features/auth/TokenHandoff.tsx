import { useEffect } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import type { ApiData } from '../../lib/api/types';
import { session } from '../../lib/session';

interface Who {
  id: number;
  label: string;
}

type Info = ApiData<'/api/auth/info', 'get'>;

const label = (u: Info['user']): Who => ({ id: u.id, label: u.name ? `${u.name} (${u.username})` : u.username });

/** The signed-in user, or null when the session is gone. */
async function current(): Promise<Who | null> {
  const res = await api.GET('/api/auth/info').catch(() => null);
  return res?.data ? label(res.data.data.user) : null;
}

/** The user of the offered token (asked outside the client, which sends the signed-in token), or null. */
async function offeredUser(token: string): Promise<Who | null> {
  const url = new URL('/api/auth/info', window.location.origin);
  const res = await fetch(new Request(url, { headers: { Authorization: `Bearer ${token}` } })).catch(() => null);
  if (!res?.ok) return null;
  const body = (await res.json().catch(() => null)) as { data?: Info } | null;
  return body?.data ? label(body.data.user) : null;
}

const reloadPage = () => window.location.reload();

/**
 * A link with ?token= while another user is signed in: asks, naming both users, before the
 * signed-in session gives way. Cancel keeps it (the token has left the URL already).
 */
export function TokenHandoff({ onSwitch = reloadPage }: { onSwitch?: () => void }) {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  useEffect(() => {
    const offered = session.takeOffer();
    if (!offered) return;
    void (async () => {
      const [me, next] = await Promise.all([current(), offeredUser(offered)]);
      if (!next) return;
      const adopt = () => {
        session.adoptToken(offered);
        onSwitch();
      };
      if (!me || me.id === next.id) {
        adopt();
        return;
      }
      modal.confirm({
        title: t('login.switchTitle'),
        content: t('login.switchContent', { current: me.label, next: next.label }),
        okText: t('login.switchOk', { next: next.label }),
        cancelText: t('login.switchCancel', { current: me.label }),
        okButtonProps: { ...{ 'data-testid': 'switch-account-ok' } },
        cancelButtonProps: { ...{ 'data-testid': 'switch-account-cancel' } },
        onOk: adopt,
      });
    })();
    // Runs again on a new language, with nothing left to offer.
  }, [modal, t, onSwitch]);
  return null;
}
