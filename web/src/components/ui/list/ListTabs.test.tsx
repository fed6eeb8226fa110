import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderAt } from '../../../test/render';
import { ListTabs } from './ListTabs';
import type { ListTab } from './types';

const tabs: ListTab[] = [
  { key: 'all', label: '全部' },
  { key: 'timeout', label: '已超时' },
  { key: 'recall_pending', label: '撤回待审', more: true },
  { key: 'returned_site', label: '退回医院', more: true },
];
const counts = { all: 1200, timeout: 4, recall_pending: 2, returned_site: 7 };

describe('ListTabs', () => {
  it('keeps the views marked more out of the tab bar and offers them, with their counts, in the menu', async () => {
    const onChange = vi.fn();
    renderAt(<ListTabs tabs={tabs} active="all" counts={counts} onChange={onChange} />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['全部999+', '已超时4']);
    const more = screen.getByTestId('tab-more');
    expect(more).toHaveTextContent('更多视图');
    fireEvent.click(more);
    const item = await screen.findByTestId('tab-returned_site');
    expect(within(item).getByText('7')).toBeInTheDocument();
    fireEvent.click(item);
    expect(onChange).toHaveBeenCalledWith('returned_site');
  });

  it('names the view from the menu that is shown, with its count, and selects no tab', () => {
    renderAt(<ListTabs tabs={tabs} active="recall_pending" counts={counts} onChange={vi.fn()} />);
    const more = screen.getByTestId('tab-more');
    expect(more).toHaveTextContent('撤回待审2');
    expect(more).toHaveAccessibleName('更多视图（当前：撤回待审）');
    expect(screen.getAllByRole('tab').filter((t) => t.getAttribute('aria-selected') === 'true')).toHaveLength(0);
  });
});
