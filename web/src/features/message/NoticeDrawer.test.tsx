import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer } from '../../test/fakeServer';
import { NoticeDrawer } from './NoticeDrawer';

describe('NoticeDrawer', () => {
  it('asks for the content first, then sends the notice to all users', async () => {
    const { calls } = fakeServer({
      'GET /api/center/list': () => [],
      'GET /api/hospital/list': () => [],
      'GET /api/role': () => [],
      'POST /api/admin/notice': () => ({ id: 1, recipients: 12 }),
    });
    const onClose = vi.fn();
    renderAt(<NoticeDrawer open onClose={onClose} />);
    fireEvent.click(await screen.findByTestId('drawer-submit'));
    expect(await screen.findByText('请填写通知内容')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByTestId('notice-content-input'), { target: { value: '周五系统维护' } });
    fireEvent.click(screen.getByTestId('drawer-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(await post.clone().json()).toEqual({ kind: 'text', level: 'normal', target: 'all', content: '周五系统维护' });
    expect(await screen.findByText('通知已发送给 12 位用户')).toBeInTheDocument();
  });
});
