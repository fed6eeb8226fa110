import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpin } from '../components/ui/FullPageSpin';
import { useAuthInfo } from '../lib/appData';
import { session, useSession } from '../lib/session';

/** Signed-in routes: no token → /login?redirect=…; user info failing → clear and login. */
export function RequireAuth() {
  const { token, userId } = useSession();
  const location = useLocation();
  const info = useAuthInfo();
  const redirect = `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`;

  useEffect(() => {
    if (info.isError) session.clear();
  }, [info.isError]);
  useEffect(() => {
    const id = info.data?.user.id;
    if (id !== undefined && id !== userId) session.setUserId(id);
  }, [info.data, userId]);

  if (!token || info.isError) return <Navigate to={redirect} replace />;
  if (!info.data) return <FullPageSpin />;
  return <Outlet />;
}
