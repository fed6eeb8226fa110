import type { ReactNode, Key } from 'react';
import type { ColumnType, TableProps } from 'antd/es/table';
import type { ApiListQuery, SortOrder } from '../../../lib/list/query';

export type CountQuery = Omit<ApiListQuery, 'page' | 'page_size' | 'sort_by'>;

export interface ListColumn<T> extends Omit<ColumnType<T>, 'sorter' | 'sortOrder' | 'key' | 'title'> {
  key: string;
  title: string;
  /** What the table head shows instead of the title (e.g. an icon); the title still names the column in settings. */
  header?: ReactNode;
  /** Server-side sortable (the column name is the key). */
  sortable?: boolean;
  /** Offered in the custom-conditions builder. */
  filterable?: boolean;
  /** Hidden until the user shows it in the column settings. */
  defaultHidden?: boolean;
}

export interface SelectOption {
  label: string;
  value: string | number;
}

export interface SearchField {
  name: string;
  label: string;
  type: 'text' | 'select' | 'dateRange';
  options?: SelectOption[];
  multiple?: boolean;
}

export interface ListTab {
  key: string;
  label: string;
  /** Shown in the "More views" menu at the end of the tab bar instead of as a tab. */
  more?: boolean;
}

export interface ListResult<T> {
  rows: T[];
  total: number;
}

export interface DataListProps<T> {
  /** Identifies the table for remembered column settings and search history. */
  tableId: string;
  /** Query-key prefix; invalidate it after writes to refresh rows and counts. */
  queryKey: readonly unknown[];
  fetchList: (q: ApiListQuery) => Promise<ListResult<T>>;
  fetchCount?: (q: CountQuery) => Promise<Record<string, number>>;
  columns: ListColumn<T>[];
  rowKey?: string;
  searchFields?: SearchField[];
  searchPlaceholder?: string;
  tabs?: ListTab[];
  tabParam?: string;
  defaultSort?: Record<string, SortOrder>;
  toolbar?: ReactNode;
  batchActions?: (selected: Key[], clear: () => void) => ReactNode;
  emptyText?: string;
  tableProps?: Partial<TableProps<T>>;
  /** Show rows as a tree: rows whose parent is on the page are nested under it. */
  tree?: { id: keyof T; parent: keyof T; column?: string };
}
