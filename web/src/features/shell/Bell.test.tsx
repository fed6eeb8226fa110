import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer } from '../../test/fakeServer';
import { Bell } from './Bell';
import { NoticeModal } from './NoticeModal';

const note = (id: number, title: string, extra: Record<string, unknown> = {}) => ({
  id, title, kind: 'case', kind_text: '病例', level: 'normal', level_text: '普通', event: 'case.assigned', case_id: 3, notice_id: null,
  link: '/diagnosis/item/3', urgent: false, created_at: '2026-11-26T08:00:00Z', read_at: null, acked_at: null, ...extra,
});

describe('Bell', () => {
  it('shows the unread count and opens a notification at its link, marking it read', async () => {
    let unread = 2;
    const { calls } = fakeServer({
      'GET /api/message/bell': () => ({ unread, latest: [note(9, '病例 C1 已分配给您'), note(8, '病例 C0 已分配给您')] }),
      'POST /api/message/read': () => {
        unread = 1;
        return {};
      },
    });
    const { router } = renderAt(<Bell />, '/', '*');
    await waitFor(() => expect(screen.getByTestId('bell-count')).toHaveTextContent('2'));
    fireEvent.click(screen.getByTestId('bell'));
    fireEvent.click(await screen.findByText('病例 C1 已分配给您'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/diagnosis/item/3'));
    const read = calls.find((c) => c.url.endsWith('/api/message/read'));
    expect(await read?.clone().json()).toEqual({ ids: [9] });
    await waitFor(() => expect(screen.getByTestId('bell-count')).toHaveTextContent('1'));
  });
});

describe('NoticeModal', () => {
  it('shows a very important notice until it is acknowledged', async () => {
    let pending = [note(5, '今晚 22:00 系统升级', { kind: 'notice', level: 'very_important' })];
    fakeServer({
      'GET /api/message/pending': () => pending,
      'POST /api/message/5/ack': () => {
        pending = [];
        return {};
      },
    });
    renderAt(<NoticeModal />);
    expect(await screen.findByText('今晚 22:00 系统升级')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('notice-ack'));
    await waitFor(() => expect(screen.queryByText('今晚 22:00 系统升级')).not.toBeInTheDocument());
  });
});
