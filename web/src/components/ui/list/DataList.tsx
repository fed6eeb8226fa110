import { useCallback, useEffect, useMemo, useState, type Key } from 'react';
import { Empty, Flex, Table, Typography, type CheckboxProps } from 'antd';
import type { ColumnType, TableProps } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, sortFromTable, type ListQuery } from '../../../lib/list/query';
import { nestRows } from '../../../lib/list/tree';
import { ColumnSettings } from './ColumnSettings';
import { ListTabs } from './ListTabs';
import { RefreshButton } from './RefreshButton';
import { SearchBox } from './SearchBox';
import { SearchForm } from './SearchForm';
import { useColumnSettings } from './useColumnSettings';
import { useListData } from './useListData';
import { useListQuery } from './useListQuery';
import type { DataListProps } from './types';

const VIRTUAL_ABOVE = 20;

/** The one list engine: URL-kept query, tabs with counts, search, columns, paging, selection. */
export function DataList<T extends object>(props: DataListProps<T>) {
  const { t } = useTranslation();
  const { tableId, columns, tabs, tabParam = 'tab', searchFields = [], rowKey = 'id' } = props;
  const firstTab = tabs?.[0]?.key;
  const { query, setQuery } = useListQuery({ sort_by: props.defaultSort, params: firstTab ? { [tabParam]: firstTab } : {} });
  const jump = useCallback((page: number) => setQuery({ page }, { replace: true }), [setQuery]);
  const { rows, total, loading, counts, refetch } = useListData({ ...props, tabParam }, query, jump);
  const cols = useColumnSettings(tableId, columns);
  const [selected, setSelected] = useState<Key[]>([]);
  const queryText = JSON.stringify(query);
  useEffect(() => setSelected([]), [queryText]);

  const activeTab = firstTab ? String(query.params[tabParam] ?? firstTab) : '';
  const tableColumns = useMemo<ColumnType<T>[]>(
    () =>
      cols.visible.map(({ sortable, filterable: _f, defaultHidden: _d, header, ...c }) => ({
        ...c,
        title: header ?? c.title,
        dataIndex: c.dataIndex ?? c.key,
        ellipsis: c.ellipsis ?? true,
        sorter: sortable,
        sortDirections: ['descend', 'ascend'],
        sortOrder: query.sort_by[c.key] === 'asc' ? 'ascend' : query.sort_by[c.key] === 'desc' ? 'descend' : null,
      })),
    [cols.visible, query.sort_by],
  );
  const scrollX = tableColumns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 160), 0) + (props.batchActions ? 48 : 0);
  const virtual = rows.length > VIRTUAL_ABOVE && !props.tree;
  const data = useMemo(() => (props.tree ? nestRows(rows, props.tree.id, props.tree.parent) : rows), [rows, props.tree]);
  // Tree rows start expanded; the user may fold them until the data changes.
  const [expanded, setExpanded] = useState<Key[]>([]);
  useEffect(() => {
    const idKey = props.tree?.id;
    if (idKey) setExpanded(rows.filter((r) => rows.some((c) => props.tree && c[props.tree.parent] === r[idKey])).map((r) => r[idKey] as Key));
  }, [rows, props.tree]);

  const onChange: TableProps<T>['onChange'] = (pg, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      setQuery({ sort_by: sortFromTable(s?.columnKey ? String(s.columnKey) : undefined, s?.order), page: 1 });
    } else if (extra.action === 'paginate') {
      const size = pg.pageSize ?? query.page_size;
      setQuery((now) => ({ page: size !== now.page_size ? 1 : (pg.current ?? 1), page_size: size }), { replace: true });
    }
  };
  const filterColumns = columns.filter((c) => c.filterable).map((c) => ({ value: c.key, label: c.title }));
  const titles = Object.fromEntries(columns.map((c) => [c.key, c.title]));
  // The tab a search keeps is the address's now: a tab clicked just before may not have rendered yet.
  const tabOnly = (now: ListQuery): ListQuery['params'] => (firstTab ? { [tabParam]: String(now.params[tabParam] ?? firstTab) } : {});

  return (
    <div data-testid={`list-${tableId}`}>
      {tabs && <ListTabs tabs={tabs} active={activeTab} counts={counts} onChange={(k) => setQuery((now) => ({ params: { ...now.params, [tabParam]: k }, page: 1 }))} />}
      {searchFields.length > 0 && (
        <SearchForm
          fields={searchFields}
          filterColumns={filterColumns}
          params={query.params}
          constraints={query.constraints}
          onSubmit={(params, constraints) => setQuery((now) => ({ params: { ...params, ...tabOnly(now) }, constraints, page: 1 }))}
        />
      )}
      <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 12 }}>
        <Flex gap={8} align="center" wrap>
          {props.toolbar}
          {props.batchActions && selected.length > 0 && (
            <>
              <Typography.Text type="secondary">{t('list.selected', { count: selected.length })}</Typography.Text>
              {props.batchActions(selected, () => setSelected([]))}
            </>
          )}
        </Flex>
        <Flex gap={8}>
          <SearchBox tableId={tableId} value={query.search} placeholder={props.searchPlaceholder} onSearch={(search) => setQuery({ search, page: 1 })} />
          <RefreshButton onRefresh={refetch} />
          <ColumnSettings settings={cols.settings} titles={titles} onChange={cols.save} onReset={cols.reset} />
        </Flex>
      </Flex>
      <Table<T>
        rowKey={rowKey}
        columns={tableColumns}
        dataSource={data}
        expandable={props.tree ? { expandedRowKeys: expanded, onExpandedRowsChange: (k) => setExpanded([...k]), expandIconColumnIndex: Math.max(0, tableColumns.findIndex((c) => c.key === props.tree?.column)) } : undefined}
        loading={loading}
        onChange={onChange}
        virtual={virtual}
        scroll={virtual ? { x: scrollX, y: Math.max(360, window.innerHeight - 380) } : { x: scrollX }}
        rowSelection={props.batchActions ? { selectedRowKeys: selected, onChange: setSelected, fixed: true, getCheckboxProps: () => ({ 'aria-label': t('list.selectRow') }) as Partial<CheckboxProps> } : undefined}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.emptyText ?? t('list.empty')} /> }}
        pagination={{
          current: query.page,
          pageSize: query.page_size,
          total,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showQuickJumper: true,
          showTotal: (n) => t('list.total', { count: n }),
        }}
        size="middle"
        {...props.tableProps}
      />
    </div>
  );
}
