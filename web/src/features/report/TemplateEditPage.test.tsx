import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { fakeServer, jsonError } from '../../test/fakeServer';
import { session } from '../../lib/session';
import TemplateEditPage from './TemplateEditPage';

const layout = {
  title_zh: '远程病理会诊报告',
  title_en: 'Remote Pathology Consultation Report',
  header: { center: true, hospital: true, report_no: true, verify: true },
  sections: [
    { key: 'patient', show: true, fields: ['name', 'age'] },
    { key: 'microscopic', show: true, heading_zh: '镜下所见', heading_en: 'Microscopic description' },
    { key: 'diagnosis', show: true, heading_zh: '病理诊断', heading_en: 'Pathological diagnosis' },
    { key: 'remark', show: true, heading_zh: '备注', heading_en: 'Remarks' },
    { key: 'signatures', show: true },
  ],
};
const template = { id: 7, kind: 'routine', name: '常规报告', active: true, layout, created_at: '2026-11-20T08:00:00Z', updated_at: '2026-11-20T08:00:00Z' };
const options = { sections: ['patient', 'microscopic', 'diagnosis', 'remark', 'signatures'], required: ['diagnosis', 'signatures'], headless: ['patient', 'signatures', 'dates'], patient_fields: ['name', 'age', 'gender'] };

describe('TemplateEditPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    session.clear();
  });

  it('reorders, hides and renames sections, sends the layout, and shows a refused heading under its field', async () => {
    const bodies: unknown[] = [];
    let refuse = true;
    fakeServer({
      'GET /api/setting/report/7': () => template,
      'GET /api/setting/report/options': () => options,
      'POST /api/setting/report/7': async (req) => {
        bodies.push(await req.json());
        if (refuse) return jsonError(422, { message: '提交的数据有误', errors: { 'layout.sections[2].heading_en': ['标题不能为空'] } });
        return template;
      },
    });
    session.signIn('tok', 1, false);
    renderAt(<TemplateEditPage />, '/setting/report/edit/7', '/setting/report/edit/:id');

    const diagnosis = await screen.findByTestId('section-diagnosis');
    expect(within(diagnosis).getByRole('checkbox')).toBeDisabled(); // required
    fireEvent.click(within(diagnosis).getByRole('button', { name: '上移 诊断' }));
    fireEvent.click(within(screen.getByTestId('section-remark')).getByRole('checkbox'));
    fireEvent.change(within(screen.getByTestId('section-microscopic')).getByLabelText('镜下所见 英文标题'), { target: { value: '' } });
    await waitFor(() => expect(screen.getByTestId('report-outline').querySelector('[data-testid="outline-remark"]')).toBeNull());
    fireEvent.click(screen.getByTestId('report-template-save'));

    expect(await within(screen.getByTestId('section-microscopic')).findByText('标题不能为空')).toBeInTheDocument();
    const sent = bodies[0] as { kind: string; layout: typeof layout };
    expect(sent.kind).toBe('routine');
    expect(sent.layout.sections.map((s) => `${s.key}:${s.show}`)).toEqual(['patient:true', 'diagnosis:true', 'microscopic:true', 'remark:false', 'signatures:true']);
    expect(sent.layout.sections[4]).toEqual({ key: 'signatures', show: true });

    refuse = false;
    fireEvent.change(within(screen.getByTestId('section-microscopic')).getByLabelText('镜下所见 英文标题'), { target: { value: 'Under the microscope' } });
    await waitFor(() => expect(within(screen.getByTestId('section-microscopic')).queryByText('标题不能为空')).toBeNull());
  });
});
