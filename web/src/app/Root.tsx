import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { onUnauthorized } from '../lib/api/client';

/** App-wide: a session the server ended goes to /login (lib/queryClient empties the cache). */
export function Root() {
  const navigate = useNavigate();
  useEffect(
    () =>
      onUnauthorized(() => {
        const here = window.location.pathname + window.location.search;
        if (!window.location.pathname.startsWith('/login')) navigate(`/login?redirect=${encodeURIComponent(here)}`, { replace: true });
      }),
    [navigate],
  );
  return <Outlet />;
}
