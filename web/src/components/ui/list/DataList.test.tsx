import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../../test/render';
import { DataList } from './DataList';
import type { ApiListQuery } from '../../../lib/list/query';
import type { ListColumn } from './types';

interface Row {
  id: number;
  name: string;
}
const columns: ListColumn<Row>[] = [
  { key: 'id', title: 'ID', width: 80, sortable: true },
  { key: 'name', title: '名称', width: 200, filterable: true },
];
const rows = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ({ id: from + i, name: `行${from + i}` }));

function setup(fetchList: (q: ApiListQuery) => Promise<{ rows: Row[]; total: number }>, url = '/list') {
  const fetchCount = vi.fn(async () => ({ all: 1234, mine: 3 }));
  const utils = renderAt(
    <DataList<Row>
      tableId="test"
      queryKey={['test']}
      fetchList={fetchList}
      fetchCount={fetchCount}
      columns={columns}
      tabs={[{ key: 'all', label: '全部' }, { key: 'mine', label: '我的' }]}
      searchFields={[{ name: 'name', label: '名称', type: 'text' }]}
    />,
    url,
    '/list',
  );
  return { ...utils, fetchCount };
}

describe('DataList', () => {
  it('loads rows with the default query and shows tab counts capped at 999+', async () => {
    const fetchList = vi.fn(async () => ({ rows: rows(3), total: 3 }));
    const { fetchCount } = setup(fetchList);
    expect(await screen.findByText('行2')).toBeInTheDocument();
    expect(fetchList).toHaveBeenCalledWith({ page: 1, page_size: 20, params: '{"tab":"all"}' });
    await waitFor(() => expect(fetchCount).toHaveBeenCalledWith({}));
    expect(await within(screen.getByTestId('tab-all')).findByText('999+')).toBeInTheDocument();
    expect(within(screen.getByTestId('tab-mine')).getByText('3')).toBeInTheDocument();
  });

  it('stays still while nobody touches it (no re-render loop)', async () => {
    const fetchList = vi.fn(async () => ({ rows: rows(1), total: 1 }));
    let renders = 0;
    const counted: ListColumn<Row>[] = [...columns, { key: 'seen', title: '渲染', render: () => ++renders }];
    renderAt(<DataList<Row> tableId="idle" queryKey={['idle']} fetchList={fetchList} fetchCount={async () => ({ all: 1 })} columns={counted} tabs={[{ key: 'all', label: '全部' }]} />, '/list', '/list');
    await screen.findByText('行1');
    await new Promise((r) => setTimeout(r, 400));
    const settled = renders;
    await new Promise((r) => setTimeout(r, 600));
    expect(renders).toBe(settled);
  });

  it('switching tabs and searching put the state in the URL and refetch from page 1', async () => {
    const fetchList = vi.fn(async () => ({ rows: rows(2), total: 2 }));
    const { router } = setup(fetchList, '/list?page=1&page_size=50');
    await screen.findByText('行1');
    fireEvent.click(screen.getByText('我的'));
    await waitFor(() => expect(fetchList).toHaveBeenLastCalledWith({ page: 1, page_size: 50, params: '{"tab":"mine"}' }));
    expect(new URLSearchParams(router.state.location.search).get('params')).toBe('{"tab":"mine"}');
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: ' 王 ' } });
    fireEvent.click(screen.getByTestId('search-submit'));
    await waitFor(() => expect(fetchList).toHaveBeenLastCalledWith({ page: 1, page_size: 50, params: '{"name":"王","tab":"mine"}' }));
  });

  // The router shows a new address in a transition; until it has rendered, the list holds the
  // query it last rendered. What the user does meanwhile (here within one act, before React
  // renders) must start from the address as it is now.
  const params = (router: { state: { location: { search: string } } }) => JSON.parse(new URLSearchParams(router.state.location.search).get('params') ?? '{}') as unknown;
  const press = (box: HTMLElement, text: string) => {
    fireEvent.change(box, { target: { value: text } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
  };

  it('keeps a tab clicked just before a search, before the tab has rendered', async () => {
    const fetchList = vi.fn(async () => ({ rows: rows(2), total: 2 }));
    const { router } = setup(fetchList);
    await screen.findByText('行1');
    act(() => {
      fireEvent.click(screen.getByText('我的'));
      press(screen.getByTestId('list-search'), '王');
    });
    await waitFor(() => expect(fetchList).toHaveBeenLastCalledWith({ page: 1, page_size: 20, search: '王', params: '{"tab":"mine"}' }));
    expect(params(router)).toEqual({ tab: 'mine' });
  });

  it('keeps a tab clicked just before the search form is reset, before the tab has rendered', async () => {
    const fetchList = vi.fn(async () => ({ rows: rows(2), total: 2 }));
    const { router } = setup(fetchList, '/list?params=%7B%22name%22%3A%22%E7%8E%8B%22%7D');
    await screen.findByText('行1');
    act(() => {
      fireEvent.click(screen.getByText('我的'));
      fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    });
    await waitFor(() => expect(params(router)).toEqual({ tab: 'mine' }));
  });

  it('cycles sorting desc → asc → none', async () => {
    const fetchList = vi.fn(async () => ({ rows: rows(2), total: 2 }));
    setup(fetchList);
    await screen.findByText('行1');
    const header = screen.getAllByText('ID')[0];
    fireEvent.click(header);
    await waitFor(() => expect(fetchList).toHaveBeenLastCalledWith(expect.objectContaining({ sort_by: '{"id":"desc"}' })));
    fireEvent.click(header);
    await waitFor(() => expect(fetchList).toHaveBeenLastCalledWith(expect.objectContaining({ sort_by: '{"id":"asc"}' })));
    fireEvent.click(header);
    await waitFor(() => expect((fetchList.mock.lastCall as unknown as [ApiListQuery])[0].sort_by).toBeUndefined());
  });

  it('jumps to the last page when the requested page is empty', async () => {
    const fetchList = vi.fn(async (q: ApiListQuery) => (q.page === 5 ? { rows: [], total: 45 } : { rows: rows(5, 41), total: 45 }));
    const { router } = setup(fetchList, '/list?page=5&page_size=20');
    await screen.findByText('行41');
    expect(fetchList).toHaveBeenCalledWith(expect.objectContaining({ page: 3 }));
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('3');
  });

  it('shows the server message and an empty table when the list call fails', async () => {
    const fetchList = vi.fn(async () => {
      throw new Error('未知的列：foo');
    });
    setup(fetchList);
    expect(await screen.findByText('未知的列：foo')).toBeInTheDocument();
    expect(screen.getAllByText('暂无数据').length).toBeGreaterThan(0);
  });
});
