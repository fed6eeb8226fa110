import { useDeferredValue, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { FullPageSpin } from '../components/ui/FullPageSpin';
import { menuQuery, useAuthInfo } from '../lib/appData';
import { session, useSession } from '../lib/session';
import { LockScreen } from '../features/shell/LockScreen';
import { useLogout } from '../lib/useLogout';

export const FORCED_PASSWORD_PATH = '/password';

/**
 * Signed-in routes: no token → /login?redirect=…; user info failing → clear and login.
 * A locked screen (kept by the server too) covers every signed-in page; a user whose
 * password an administrator set sees only the change-password page until it is changed.
 */
export function RequireAuth() {
  const { token, userId, locked, lockedName } = useSession();
  const location = useLocation();
  const info = useAuthInfo();
  const client = useQueryClient();
  // The signed-in screens first render in the background, interruptibly, once the spinner below
  // has stayed on screen one more time: the requests started in render (the menu here, a list's
  // rows and counts) go out while they render instead of after the whole screen is drawn.
  const shown = useDeferredValue(info.data);
  // The shell's menu goes out as soon as the user info is in, before the screens below render
  // (once; the shell's useMenu takes the answer over). A locked session answers only the unlock
  // call, and one that must change its password only that.
  const menuNow = !!token && !locked && !!info.data && !info.data.user.must_change_password;
  if (menuNow && !client.getQueryState(menuQuery.queryKey)) void client.prefetchQuery(menuQuery);
  const logout = useLogout();
  const redirect = `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`;
  const failed = info.isError && !locked;

  useEffect(() => {
    if (failed) session.clear();
  }, [failed]);
  useEffect(() => {
    const id = info.data?.user.id;
    if (id !== undefined && id !== userId) session.setUserId(id);
  }, [info.data, userId]);

  const lockScreen = (name: string) => <LockScreen name={name} onLogout={() => void logout()} />;
  if (!token || failed) return <Navigate to={redirect} replace />;
  if (locked && !info.data) return lockScreen(lockedName);
  if (!info.data) return <FullPageSpin />;
  const mustChange = info.data.user.must_change_password;
  if (mustChange && location.pathname !== FORCED_PASSWORD_PATH) return <Navigate to={FORCED_PASSWORD_PATH} replace />;
  if (!mustChange && location.pathname === FORCED_PASSWORD_PATH) return <Navigate to="/manage" replace />;
  if (!shown) return <FullPageSpin />;
  return (
    <>
      <Outlet />
      {locked && lockScreen(info.data.user.name || info.data.user.username)}
    </>
  );
}
