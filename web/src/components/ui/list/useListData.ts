import { useEffect, useMemo } from 'react';
import { App } from 'antd';
import { keepPreviousData, usePrefetchQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { pageToJumpTo, toApiQuery, toCountQuery, type ListQuery } from '../../../lib/list/query';
import { useDebounced } from './useDebounced';
import type { DataListProps } from './types';

type Source<T> = Pick<DataListProps<T>, 'queryKey' | 'fetchList' | 'fetchCount' | 'tabParam' | 'tabs'>;

// An answer fetched in the render that mounts the list (the prefetches below) is not asked for
// again when the list mounts; an older or invalidated one is, as always.
const JUST_FETCHED_MS = 3000;
const notJustFetched = (q: { state: { isInvalidated: boolean; dataUpdatedAt: number } }) => q.state.isInvalidated || Date.now() - q.state.dataUpdatedAt > JUST_FETCHED_MS;

/** Loads rows and tab counts for the current query; jumps back when a page empties. */
export function useListData<T>(src: Source<T>, query: ListQuery, jump: (page: number) => void) {
  const { message } = App.useApp();
  const apiQuery = toApiQuery(query);
  const listKey = [...src.queryKey, 'list', apiQuery];
  const listFn = () => src.fetchList(apiQuery);
  // The request goes out while this render goes on (the table, the rest of the screen), not
  // after the whole screen has committed: a first list answers that much sooner. Once a key,
  // as useQuery below would, which then takes the answer over.
  usePrefetchQuery({ queryKey: listKey, queryFn: listFn });
  const list = useQuery({
    queryKey: listKey,
    queryFn: listFn,
    placeholderData: keepPreviousData,
    refetchOnMount: notJustFetched,
  });
  // Debounced by value: a fresh object each render would restart the timer and
  // re-render the list ten times a second for as long as it is open.
  const countKey = useDebounced(JSON.stringify(toCountQuery(query, src.tabs ? src.tabParam : undefined)), 100);
  const countQuery = useMemo(() => JSON.parse(countKey) as ReturnType<typeof toCountQuery>, [countKey]);
  const client = useQueryClient();
  const countsKey = [...src.queryKey, 'count', countQuery];
  const countFn = () => src.fetchCount!(countQuery);
  const withCounts = !!src.fetchCount && !!src.tabs;
  // The tab counts go out with the list, in this render (as the list's above).
  if (withCounts && !client.getQueryState(countsKey)) void client.prefetchQuery({ queryKey: countsKey, queryFn: countFn });
  const counts = useQuery({
    queryKey: countsKey,
    queryFn: countFn,
    enabled: withCounts,
    placeholderData: keepPreviousData,
    refetchOnMount: notJustFetched,
  });

  useEffect(() => {
    if (list.error) void message.error(list.error.message);
  }, [list.error, message]);

  const rows = list.isError ? [] : (list.data?.rows ?? []);
  const total = list.isError ? 0 : (list.data?.total ?? 0);
  useEffect(() => {
    if (!list.data || list.isPlaceholderData) return;
    const to = pageToJumpTo(query.page, list.data.rows.length, list.data.total, query.page_size);
    if (to !== null) jump(to);
  }, [list.data, list.isPlaceholderData, query.page, query.page_size, jump]);

  return { rows, total, loading: list.isFetching, counts: counts.isError ? undefined : counts.data, refetch: () => Promise.all([list.refetch(), counts.refetch()]) };
}
