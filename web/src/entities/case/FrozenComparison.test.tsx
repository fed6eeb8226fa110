import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer } from '../../test/fakeServer';
import { FrozenComparisonCard } from './FrozenComparison';

const appt = (extra: Record<string, unknown> = {}) => ({
  id: 4, consultation_id: 10, paraffin_case_id: 20, paraffin_consult_no: 'TP261126000020', paraffin_published: true,
  frozen_verdict: 'malignant', frozen_opinion: '（甲状腺左叶）恶性，乳头状癌。', expert_name: '张建国', reported_at: '2026-11-26T02:10:00Z',
  concordance: '', concordance_note: '', concordance_by: null, concordance_at: null, actions: ['concordance'], ...extra,
});

describe('FrozenComparisonCard', () => {
  it('shows the frozen diagnosis of a paraffin case and asks why when discordant', async () => {
    const { calls } = fakeServer({
      'GET /api/frozen/appointment/lists': (_req, url) => {
        expect(JSON.parse(url.searchParams.get('params') ?? '{}')).toEqual({ paraffin_case_id: 20 });
        return [appt()];
      },
      'POST /api/frozen/appointment/4/concordance': () => appt({ concordance: 'discordant' }),
    });
    renderAt(<FrozenComparisonCard caseId={20} enabled />, '/', '*');
    expect(await screen.findByTestId('frozen-opinion')).toHaveTextContent('乳头状癌');
    expect(screen.getByText('未对照')).toBeInTheDocument();
    fireEvent.click(screen.getByText('不符'));
    fireEvent.click(screen.getByTestId('concordance-save'));
    expect(await screen.findByText('不符时必填：说明冰冻与石蜡诊断的差异', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByTestId('concordance-note'), { target: { value: '石蜡为结节性甲状腺肿' } });
    fireEvent.click(screen.getByTestId('concordance-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST');
    expect(await post?.clone().json()).toEqual({ concordance: 'discordant', note: '石蜡为结节性甲状腺肿' });
  });

  it('shows nothing for a case that followed no frozen case, and no form without the action', async () => {
    fakeServer({ 'GET /api/frozen/appointment/lists': () => [] });
    const { container } = renderAt(<FrozenComparisonCard caseId={21} enabled />, '/', '*');
    await waitFor(() => expect(container.querySelector('[data-testid="frozen-comparison"]')).toBeNull());
  });

  it('preselects a deferral when the frozen diagnosis deferred to paraffin', async () => {
    fakeServer({ 'GET /api/frozen/appointment/lists': () => [appt({ frozen_verdict: 'deferred' })] });
    renderAt(<FrozenComparisonCard caseId={20} enabled />, '/', '*');
    await screen.findByTestId('frozen-opinion');
    await waitFor(() => expect(screen.getByRole('radio', { name: '延迟诊断' })).toBeChecked());
  });
});
