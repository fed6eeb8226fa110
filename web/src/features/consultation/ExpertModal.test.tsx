import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer } from '../../test/fakeServer';
import { session } from '../../lib/session';
import { ExpertModal } from './dialogs';

describe('assign dialog', () => {
  beforeEach(() => session.signIn('token', 3, false));
  afterEach(() => {
    vi.unstubAllGlobals();
    session.clear();
  });

  it('marks away experts, lists them last, keeps them selectable and warns when one is chosen', async () => {
    fakeServer({
      'GET /api/consultation/resources/0/exp_list/center': () => [
        { id: 7, name: '陈外出', away: true, away_note: '外出开会', away_until: '2026-12-01' },
        { id: 9, name: '王在岗' },
      ],
    });
    const onOk = vi.fn(() => Promise.resolve());
    renderAt(<ExpertModal open title="分配专家" centerId={2} onCancel={() => {}} onOk={onOk} />);
    fireEvent.mouseDown(await screen.findByRole('combobox'));
    const tag = await screen.findByText('暂停接诊至 2026-12-01');
    const options = [...document.querySelectorAll('.ant-select-item-option')];
    expect(options.map((o) => o.textContent)).toEqual(['王在岗', '陈外出暂停接诊至 2026-12-01']);
    expect(tag.closest('.ant-select-item-option')).not.toHaveClass('ant-select-item-option-disabled');

    fireEvent.click(tag);
    expect(await screen.findByTestId('expert-away-warning')).toHaveTextContent('陈外出 暂停接诊，请仅在病例无法等待时分配');
    expect(screen.getByTestId('expert-away-warning')).toHaveTextContent('外出开会 · 2026-12-01 返回');
    fireEvent.click(screen.getByTestId('expert-ok'));
    await waitFor(() => expect(onOk).toHaveBeenCalledWith(7, ''));
  });

  it('lists experts bound to the case library first and marked, and says when none is bound', async () => {
    let asked = '';
    fakeServer({
      'GET /api/consultation/resources/0/exp_list/center': (req) => {
        asked = new URL(req.url).search;
        return asked.includes('library_id=4') ? [{ id: 9, name: '王细胞', subspecialty: true }, { id: 7, name: '陈常规' }] : [{ id: 7, name: '陈常规' }];
      },
    });
    const { unmount } = renderAt(<ExpertModal open title="分配专家" centerId={2} libraryId={4} onCancel={() => {}} onOk={() => Promise.resolve()} />);
    fireEvent.mouseDown(await screen.findByRole('combobox'));
    await screen.findByText('王细胞');
    expect([...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent)).toEqual(['王细胞亚专科', '陈常规']);
    expect(asked).toContain('library_id=4');
    expect(screen.queryByTestId('expert-no-subspecialty')).toBeNull();
    unmount();

    renderAt(<ExpertModal open title="分配专家" centerId={2} libraryId={5} onCancel={() => {}} onOk={() => Promise.resolve()} />);
    expect(await screen.findByTestId('expert-no-subspecialty')).toHaveTextContent('专家未绑定亚专科');
  });
});
