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
});
