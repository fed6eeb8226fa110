import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { DiagnosisFields, VersionList } from './DiagnosisForm';
import { EMPTY_DRAFT } from './useDraft';
import type { Diagnosis } from './api';

describe('report class', () => {
  it('offers the center’s report classes in a labelled select and reports the choice', async () => {
    const onChange = vi.fn();
    renderAt(<DiagnosisFields values={EMPTY_DRAFT} readOnly={false} onChange={onChange} reportClasses={['常规报告', '疑难会诊']} />);
    const select = screen.getByRole('combobox', { name: '报告分类' });
    fireEvent.mouseDown(select);
    const options = await screen.findAllByRole('option');
    expect(options.length).toBeGreaterThan(0);
    expect([...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent)).toEqual(['常规报告', '疑难会诊']);
    fireEvent.click(screen.getByTitle('疑难会诊'));
    expect(onChange).toHaveBeenCalledWith('report_class', '疑难会诊');
  });

  it('is left out when the center has no classes, and keeps a saved class shown read-only', () => {
    const { unmount } = renderAt(<DiagnosisFields values={EMPTY_DRAFT} readOnly={false} onChange={() => {}} reportClasses={[]} />);
    expect(screen.queryByTestId('field-report_class')).toBeNull();
    unmount();
    renderAt(<DiagnosisFields values={{ ...EMPTY_DRAFT, report_class: '常规报告' }} readOnly onChange={() => {}} reportClasses={null} />);
    expect(screen.getByRole('combobox', { name: '报告分类' })).toBeDisabled();
    expect(screen.getByTestId('field-report_class')).toHaveTextContent('常规报告');
  });

  it('shows the saved class in the report view under the report number, as the PDF prints it', () => {
    const v = {
      id: 1, consult_id: 2, type: 0, version: 1, status: 'published', opinion: '慢性胃炎。', microscopic: '', gross_description: '', remark: '',
      critical_values: '', frozen_verdict: '', report_class: '疑难会诊', doctor_id: 3, doctor_name: '张专家', reviewer_id: null, reviewer_name: null,
      review_note: '', report_no: 'R1', verify_code: '', published_at: '2026-11-27T08:00:00Z', release_at: null, created_at: '2026-11-27T08:00:00Z',
      updated_at: '2026-11-27T08:00:00Z', first_result: '', first_result_reason: '', struct_template_id: null, struct_values: null,
    } as unknown as Diagnosis;
    renderAt(<VersionList versions={[v]} />);
    const labels = [...document.querySelectorAll('.ant-descriptions-item-label')].map((e) => e.textContent);
    expect(labels.indexOf('报告分类')).toBe(labels.indexOf('报告编号') + 1);
    expect(screen.getByText('疑难会诊')).toBeInTheDocument();
  });
});
