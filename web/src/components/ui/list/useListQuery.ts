import { useCallback, useMemo } from 'react';
import { useSearchParams } from '../../../lib/searchParams';
import { defaultQuery, parseQuery, toSearchParams, type ListQuery, type SortOrder } from '../../../lib/list/query';

/** A change of the list state: the members to set, or a function of the state the address holds now. */
export type QueryPatch = Partial<ListQuery> | ((now: ListQuery) => Partial<ListQuery>);

/**
 * The list state lives in the URL query; page changes replace the history entry. A change is
 * applied to the address as it is now, not as this list last rendered it: a patch that depends on
 * the state (another tab, a search that keeps the tab) is a function of it.
 */
export function useListQuery(defaults: { sort_by?: Record<string, SortOrder>; params?: ListQuery['params'] } = {}) {
  const [sp, setSp] = useSearchParams();
  const base = useMemo(() => defaultQuery({ sort_by: defaults.sort_by ?? {}, params: defaults.params ?? {} }), [JSON.stringify(defaults)]); // eslint-disable-line react-hooks/exhaustive-deps
  const query = useMemo(() => parseQuery(sp, base), [sp, base]);
  const setQuery = useCallback(
    (patch: QueryPatch, opts: { replace?: boolean } = {}) => {
      setSp(
        (now) => {
          const q = parseQuery(now, base);
          return toSearchParams({ ...q, ...(typeof patch === 'function' ? patch(q) : patch) }, now, base);
        },
        { replace: opts.replace ?? false },
      );
    },
    [setSp, base],
  );
  return { query, setQuery };
}
