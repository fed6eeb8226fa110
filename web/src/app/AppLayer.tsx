import { App as AntApp } from 'antd';
import { Outlet } from 'react-router';
import { TokenHandoff } from '../features/auth/TokenHandoff';

/**
 * Every screen but the sign-in page: antd's message, notification and modal holders, and the
 * ?token hand-off question. A route of its own (router.tsx), so /login carries none of it.
 */
export function AppLayer() {
  return (
    <AntApp>
      <TokenHandoff />
      <Outlet />
    </AntApp>
  );
}
