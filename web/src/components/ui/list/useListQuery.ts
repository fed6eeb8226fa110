import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { defaultQuery, parseQuery, toSearchParams, type ListQuery, type SortOrder } from '../../../lib/list/query';

/** The list state lives in the URL query; page changes replace the history entry. */
export function useListQuery(defaults: { sort_by?: Record<string, SortOrder>; params?: ListQuery['params'] } = {}) {
  const [sp, setSp] = useSearchParams();
  const base = useMemo(() => defaultQuery({ sort_by: defaults.sort_by ?? {}, params: defaults.params ?? {} }), [JSON.stringify(defaults)]); // eslint-disable-line react-hooks/exhaustive-deps
  const query = useMemo(() => parseQuery(sp, base), [sp, base]);
  const setQuery = useCallback(
    (patch: Partial<ListQuery>, opts: { replace?: boolean } = {}) => {
      setSp((prev) => toSearchParams({ ...parseQuery(prev, base), ...patch }, prev, base), { replace: opts.replace ?? false });
    },
    [setSp, base],
  );
  return { query, setQuery };
}
