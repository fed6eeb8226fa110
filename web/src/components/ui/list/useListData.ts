import { useEffect, useMemo } from 'react';
import { App } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { pageToJumpTo, toApiQuery, toCountQuery, type ListQuery } from '../../../lib/list/query';
import { useDebounced } from './useDebounced';
import type { DataListProps } from './types';

type Source<T> = Pick<DataListProps<T>, 'queryKey' | 'fetchList' | 'fetchCount' | 'tabParam' | 'tabs'>;

/** Loads rows and tab counts for the current query; jumps back when a page empties. */
export function useListData<T>(src: Source<T>, query: ListQuery, jump: (page: number) => void) {
  const { message } = App.useApp();
  const apiQuery = toApiQuery(query);
  const list = useQuery({
    queryKey: [...src.queryKey, 'list', apiQuery],
    queryFn: () => src.fetchList(apiQuery),
    placeholderData: keepPreviousData,
  });
  // Debounced by value: a fresh object each render would restart the timer and
  // re-render the list ten times a second for as long as it is open.
  const countKey = useDebounced(JSON.stringify(toCountQuery(query, src.tabs ? src.tabParam : undefined)), 100);
  const countQuery = useMemo(() => JSON.parse(countKey) as ReturnType<typeof toCountQuery>, [countKey]);
  const counts = useQuery({
    queryKey: [...src.queryKey, 'count', countQuery],
    queryFn: () => src.fetchCount!(countQuery),
    enabled: !!src.fetchCount && !!src.tabs,
    placeholderData: keepPreviousData,
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
