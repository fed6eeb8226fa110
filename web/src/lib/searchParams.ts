import { useCallback, useContext } from 'react';
import {
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  useSearchParams as useRouterSearchParams,
  type SetURLSearchParams,
} from 'react-router';

/**
 * The address's query, as React Router's useSearchParams gives it, with writes that start from the
 * address as the router has it now rather than as this screen last rendered it.
 *
 * The router moves to a new address at once but shows it in a transition: until the screen has
 * rendered it (long on a busy machine), every component holds the query it last rendered, and
 * React Router's functional update is handed that copy. A list that wrote its page or search in
 * that time put back the view or tab a switch had just left (a search typed right after the
 * switch to the archive on /borrow/manage kept the loans in place). Here a functional update gets
 * the router's current query (of the navigation under way, if any), and a write from a screen the
 * router has already left for another path is dropped.
 */
export function useSearchParams(): [URLSearchParams, SetURLSearchParams] {
  const [sp, setSp] = useRouterSearchParams();
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const shownPath = useContext(UNSAFE_DataRouterStateContext)?.location.pathname;
  const set = useCallback<SetURLSearchParams>(
    (next, opts) => {
      if (!router) return setSp(next, opts);
      const now = router.state.navigation.location ?? router.state.location;
      if (now.pathname !== shownPath) return;
      setSp(typeof next === 'function' ? next(new URLSearchParams(now.search)) : next, opts);
    },
    [router, shownPath, setSp],
  );
  return [sp, set];
}
