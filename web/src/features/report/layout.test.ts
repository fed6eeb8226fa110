import { describe, expect, it } from 'vitest';
import { cleanLayout, fieldPath, printed } from './layout';
import type { Layout } from './api';

const layout: Layout = {
  title_zh: '远程病理会诊报告',
  title_en: 'Report',
  header: { center: true, hospital: true, report_no: true, verify: true },
  sections: [
    { key: 'patient', show: true, fields: ['name', 'age'] },
    { key: 'remark', show: false, heading_zh: '备注', heading_en: 'Remarks' },
    { key: 'diagnosis', show: true, heading_zh: '病理诊断', heading_en: 'Diagnosis' },
    { key: 'signatures', show: true, heading_zh: 'stale' },
  ],
};

describe('report template layout', () => {
  it('maps server field names onto form paths', () => {
    expect(fieldPath('layout.sections[3].heading_en')).toEqual(['layout', 'sections', 3, 'heading_en']);
    expect(fieldPath('layout.sections[0].fields[12]')).toEqual(['layout', 'sections', 0, 'fields', 12]);
    expect(fieldPath('name')).toEqual(['name']);
    expect(fieldPath('layout.header.verify')).toEqual(['layout', 'header', 'verify']);
  });
  it('lists the printed sections in order with the heading of the language', () => {
    expect(printed(layout, 'en')).toEqual([
      { key: 'patient', heading: '' },
      { key: 'diagnosis', heading: 'Diagnosis' },
      { key: 'signatures', heading: '' },
    ]);
    expect(printed(layout, 'zh')[1].heading).toBe('病理诊断');
  });
  it('drops headings of headless sections and fields of other sections', () => {
    const c = cleanLayout(layout, ['patient', 'signatures', 'dates']);
    expect(c.sections?.[3]).toEqual({ key: 'signatures', show: true });
    expect(c.sections?.[0]).toEqual({ key: 'patient', show: true, fields: ['name', 'age'] });
    expect(c.sections?.[1]).toEqual({ key: 'remark', show: false, heading_zh: '备注', heading_en: 'Remarks' });
  });
});
