import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { MESSAGE_MAX, MessageThread, type ThreadMessage } from './MessageThread';

const theirs: ThreadMessage = { id: 1, content: '请补充免疫组化结果', user_name: '王建国', created_at: '2026-11-24T08:00:00Z', mine: false };
const mine: ThreadMessage = { id: 2, content: '已安排加做', user_name: '孙丽', created_at: '2026-11-24T08:05:00Z', mine: true };

/** The thread over an in-memory server: sending appends, deleting removes. */
function setup(initial: ThreadMessage[], opts: { loading?: boolean } = {}) {
  const onSend = vi.fn<(c: string) => Promise<unknown>>();
  const onDelete = vi.fn<(id: number) => Promise<unknown>>();
  function Harness() {
    const [list, setList] = useState(initial);
    onSend.mockImplementation(async (content) => setList((l) => [...l, { id: 100 + l.length, content, user_name: '孙丽', created_at: '2026-11-24T09:00:00Z', mine: true }]));
    onDelete.mockImplementation(async (id) => setList((l) => l.filter((m) => m.id !== id)));
    return <MessageThread caseId={7} messages={list} loading={!!opts.loading} sending={false} onSend={onSend} onDelete={onDelete} />;
  }
  renderAt(<Harness />);
  return { onSend, onDelete, input: () => screen.getByTestId('message-input') as HTMLTextAreaElement };
}

describe('MessageThread', () => {
  it('shows the empty state', () => {
    setup([]);
    expect(screen.getByText('还没有留言')).toBeInTheDocument();
  });

  it('shows a spinner while loading', () => {
    setup([], { loading: true });
    expect(screen.queryByText('还没有留言')).not.toBeInTheDocument();
    expect(document.querySelector('.ant-spin')).not.toBeNull();
  });

  it('sends the trimmed text, empties the box and shows the message as mine', async () => {
    const { onSend, input } = setup([theirs]);
    fireEvent.change(input(), { target: { value: '  HE 切片已重新扫描  ' } });
    fireEvent.click(screen.getByTestId('message-send'));
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('HE 切片已重新扫描'));
    expect(await screen.findByText('HE 切片已重新扫描')).toBeInTheDocument();
    expect(input().value).toBe('');
    expect(screen.getAllByTestId('message-item')).toHaveLength(2);
  });

  it('sends with Ctrl+Enter and refuses an empty message', async () => {
    const { onSend, input } = setup([]);
    fireEvent.change(input(), { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('message-send'));
    expect(await screen.findByText('请输入留言内容')).toBeInTheDocument();
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.change(input(), { target: { value: '收到' } });
    fireEvent.keyDown(input(), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('收到'));
  });

  it('keeps the text when sending fails', async () => {
    const { onSend, input } = setup([]);
    fireEvent.change(input(), { target: { value: '稍后再发' } });
    onSend.mockImplementationOnce(async () => {
      throw new Error('网络错误');
    });
    fireEvent.click(screen.getByTestId('message-send'));
    await waitFor(() => expect(onSend).toHaveBeenCalled());
    expect(input().value).toBe('稍后再发');
  });

  it('deletes only own messages, after confirming', async () => {
    const { onDelete } = setup([theirs, mine]);
    const buttons = screen.getAllByTestId('message-delete');
    expect(buttons).toHaveLength(1);
    const items = screen.getAllByTestId('message-item');
    expect(within(items[0]).queryByTestId('message-delete')).toBeNull();
    fireEvent.click(within(items[1]).getByTestId('message-delete'));
    const ok = await screen.findByRole('button', { name: '删 除' });
    fireEvent.click(ok);
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith(2));
    await waitFor(() => expect(screen.queryByText('已安排加做')).not.toBeInTheDocument());
    expect(screen.getByText('请补充免疫组化结果')).toBeInTheDocument();
  });

  it(`limits a message to ${MESSAGE_MAX} characters`, async () => {
    const { onSend, input } = setup([]);
    expect(input().maxLength).toBe(MESSAGE_MAX);
    expect(screen.getByText(`0 / ${MESSAGE_MAX}`)).toBeInTheDocument();
    fireEvent.change(input(), { target: { value: '字'.repeat(MESSAGE_MAX) } });
    expect(screen.getByText(`${MESSAGE_MAX} / ${MESSAGE_MAX}`)).toBeInTheDocument();
    fireEvent.change(input(), { target: { value: '字'.repeat(MESSAGE_MAX + 1) } });
    fireEvent.click(screen.getByTestId('message-send'));
    await waitFor(() => expect(screen.getByText(`留言不能超过 ${MESSAGE_MAX} 个字`)).toBeInTheDocument());
    expect(onSend).not.toHaveBeenCalled();
  });
});
