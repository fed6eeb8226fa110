import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../test/render';
import { fakeServer } from '../../test/fakeServer';
import CaseManagePage from './CaseManagePage';

const label = (key: string, text: string, color: string) => ({ key, label: text, color });
const row = (id: number, over: Record<string, unknown> = {}) => ({
  id, consult_no: `TP0000${id}`, pathology_number: `BL-${id}`, patient_name: `患者${id}`, gender: 'female', age: 40, age_unit: 'year',
  hospital_id: 1, hospital_name: '明州一院', center_id: 2, center_name: '华东中心', expert_id: null, expert_name: null, library_name: null,
  status: 0, is_draft: 0, is_recall: 0, is_return: 0, is_lock: 0, manage_confirm: 0, expedite: 0, charge_status: 1, slide_count: 1,
  status_label: label('to_be_submitted', '待提交', 'orange'), timing: '', recall_reason: '', return_reason: '',
  inspection_date: null, created_at: '2026-11-22T01:00:00Z', updated_at: '2026-11-22T01:00:00Z', submitted_at: null, assigned_at: null, timeout_at: null, remind_at: null,
  ...over,
});

describe('/case/manage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists cases with status tags, tab counts and row actions by state, and batch-submits with per-case results', async () => {
    const rows = [
      // The server sends, per row, the actions the caller may take now.
      row(1, { actions: ['delete', 'submit', 'update'] }),
      row(2, { status: 1, status_label: label('pending_diagnosis', '待诊断', 'blue'), timing: 'timeout', timeout_at: '2026-11-21T00:00:00Z', charge_status: 2, expedite: 1, actions: ['recall'] }),
    ];
    const server = fakeServer({
      'GET /api/consultation/list': (_r, url) => {
        const params = JSON.parse(url.searchParams.get('params') ?? '{}');
        const data = params.tab === 'draft' ? [] : rows;
        return new Response(JSON.stringify({ data, meta: { pagination: { total: data.length, current_page: 1, per_page: 20, total_page: 1 } } }), { headers: { 'Content-Type': 'application/json' } });
      },
      'GET /api/consultation/count': () => ({ all: 2, draft: 0, to_submit: 1, submitted: 1, to_review: 0, completed: 0, recall: 0, returned_site: 0, timeout: 1 }),
      'GET /api/hospital/list': () => [],
      'GET /api/center/list': () => [],
      'POST /api/consultation/batch_submit': () => [
        { id: 1, ok: false, message: '病例未收费，不能提交' },
        { id: 2, ok: true },
      ],
    });
    renderAt(<CaseManagePage />, '/case/manage', '/case/manage');

    expect(await screen.findByText('TP00001')).toBeInTheDocument();
    expect(document.querySelector('[data-status="to_be_submitted"]')).toHaveTextContent('待提交');
    expect(screen.getAllByText('已超时').length).toBeGreaterThan(0);
    await waitFor(() => expect(within(screen.getByTestId('tab-to_submit')).getByText('1')).toBeInTheDocument());

    // A case to be submitted can be edited, charged, submitted and deleted; a submitted one only recalled.
    const a1 = screen.getByTestId('case-actions-1');
    expect(within(a1).getByText('编辑')).toBeInTheDocument();
    expect(within(a1).getByText('收费')).toBeInTheDocument();
    const a2 = screen.getByTestId('case-actions-2');
    expect(within(a2).getByText('撤回')).toBeInTheDocument();
    expect(within(a2).queryByText('编辑')).toBeNull();

    const user = userEvent.setup();
    for (const box of screen.getAllByRole('checkbox').slice(1)) await user.click(box);
    await user.click(await screen.findByTestId('batch-batch_submit'));
    await user.click(await screen.findByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('成功 1 例，失败 1 例')).toBeInTheDocument();
    expect(screen.getByText('病例未收费，不能提交')).toBeInTheDocument();
    const sent = server.calls.find((c) => c.url.endsWith('/api/consultation/batch_submit'));
    expect(await sent!.clone().json()).toEqual({ ids: [1, 2] });
  });
});
