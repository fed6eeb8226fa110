import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n, loadLanguage } from '../../../lib/i18n';
import type { StructField, StructValues } from './api';
import { StructuredForm, fieldLabel, initialValues, optionLabel, templateName } from './StructuredForm';
import { DefaultInput } from './AdminTabs';
import { Form } from 'antd';
import { RuleEditor, describeRule, type RuleDraft } from './RuleEditor';
import { byField } from './StructuredDrawer';

const FIELDS: StructField[] = [
  { key: 'histological_type', label: '组织学类型', label_en: 'Histological type', type: 'select', options: ['NST', 'Lobular'], required: true },
  { key: 'tumour_size', label: '肿瘤最大径', label_en: 'Tumour size', type: 'number', unit: 'mm', default: 10 },
  { key: 'ln_ratio', label: '阳性率', type: 'number', unit: '%' },
  { key: 'comment', label: '备注', type: 'text' },
  { key: 'markers', label: '标记', type: 'multiselect', options: ['ER', 'PR'] },
  { key: 'lvi', label: '脉管侵犯', type: 'bool' },
];

function Harness({ onChange }: { onChange: (v: StructValues) => void }) {
  const [values, setValues] = useState<StructValues>(initialValues(FIELDS));
  return (
    <I18nextProvider i18n={i18n}>
      <StructuredForm
        fields={FIELDS}
        values={values}
        computed={['ln_ratio']}
        errors={{ comment: ['请填写备注'] }}
        hints={{ tumour_size: ['较大'] }}
        onChange={(v) => {
          setValues(v);
          onChange(v);
        }}
      />
    </I18nextProvider>
  );
}

describe('the structured form', () => {
  it('has a labelled input for every field, starts from the defaults and reports changes', async () => {
    await i18n.changeLanguage('zh-CN');
    const seen = vi.fn();
    render(<Harness onChange={seen} />);
    for (const f of FIELDS) expect(screen.getAllByLabelText(f.label).length).toBeGreaterThan(0);
    const size = screen.getByRole('spinbutton', { name: '肿瘤最大径' });
    expect((size as HTMLInputElement).value).toBe('10');
    expect(screen.getByText('mm')).toBeTruthy();
    // Computed fields are read-only; problems show under their field.
    expect((screen.getByRole('spinbutton', { name: '阳性率' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('请填写备注')).toBeTruthy();
    expect(screen.getByText('较大')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: '备注' }), { target: { value: 'ok' } });
    expect(seen).toHaveBeenLastCalledWith({ tumour_size: 10, comment: 'ok' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'ER' }));
    expect(seen).toHaveBeenLastCalledWith({ tumour_size: 10, comment: 'ok', markers: ['ER'] });
    fireEvent.click(screen.getByRole('switch', { name: '脉管侵犯' }));
    expect(seen).toHaveBeenLastCalledWith({ tumour_size: 10, comment: 'ok', markers: ['ER'], lvi: true });
    // Emptied, a value is dropped.
    fireEvent.change(screen.getByRole('textbox', { name: '备注' }), { target: { value: '' } });
    expect(seen).toHaveBeenLastCalledWith({ tumour_size: 10, markers: ['ER'], lvi: true });
  });

  it('shows options in the reader\'s language and keeps the option itself', async () => {
    await loadLanguage('en-US');
    await i18n.changeLanguage('en-US');
    const margin: StructField = { key: 'margin', label: '切缘', label_en: 'Margin', type: 'multiselect', options: ['未累及', '累及', '可疑'], options_en: ['Not involved', 'Involved'] };
    const seen = vi.fn();
    render(
      <I18nextProvider i18n={i18n}>
        <StructuredForm fields={[margin]} values={{}} onChange={seen} />
      </I18nextProvider>,
    );
    // "可疑" has no English text: it reads as entered.
    expect(screen.getByRole('checkbox', { name: 'Not involved' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: '可疑' })).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Involved' }));
    expect(seen).toHaveBeenLastCalledWith({ margin: ['累及'] });
    expect(optionLabel(margin, '累及', 'zh-CN')).toBe('累及');
    expect(optionLabel(margin, '累及', 'en-US')).toBe('Involved');
    expect(optionLabel({ options: ['甲'] }, '甲', 'en-US')).toBe('甲');
  });

  it('labels in the interface language', () => {
    expect(fieldLabel(FIELDS[0]!, 'en-US')).toBe('Histological type');
    expect(fieldLabel(FIELDS[0]!, 'zh-CN')).toBe('组织学类型');
    expect(fieldLabel(FIELDS[3]!, 'en-US')).toBe('备注');
    expect(templateName({ name: '乳腺', name_en: 'Breast' }, 'en-US')).toBe('Breast');
    expect(templateName({ name: '乳腺', name_en: 'Breast' }, 'zh-CN')).toBe('乳腺');
    expect(templateName({ name: '乳腺', name_en: '' }, 'en-US')).toBe('乳腺');
    expect(byField([{ field: 'a', message: 'x' }, { field: 'a', message: 'y' }, { message: 'z' }])).toEqual({ a: ['x', 'y'] });
  });
});

function RuleHarness({ start, onChange }: { start: RuleDraft; onChange: (v: RuleDraft) => void }) {
  const [v, setV] = useState(start);
  return (
    <I18nextProvider i18n={i18n}>
      <RuleEditor
        fields={FIELDS}
        value={v}
        onChange={(x) => {
          setV(x);
          onChange(x);
        }}
      />
    </I18nextProvider>
  );
}

function DefaultHarness({ field, onValues }: { field: StructField; onValues: (v: unknown) => void }) {
  return (
    <I18nextProvider i18n={i18n}>
      <Form initialValues={{ fields: [field] }} onValuesChange={(_, all: { fields: StructField[] }) => onValues(all.fields[0]?.default)}>
        <Form.Item name={['fields', 0, 'default']} label="Default 1">
          <DefaultInput type={field.type} name={0} label="Default 1" testId="d" />
        </Form.Item>
      </Form>
    </I18nextProvider>
  );
}

describe('a field\'s default in the template editor', () => {
  it('is an input of the field\'s type, a choice among its options', async () => {
    await loadLanguage('en-US');
    await i18n.changeLanguage('en-US');
    const seen = vi.fn();
    const { unmount } = render(
      <DefaultHarness field={{ key: 'm', label: '切缘', type: 'select', options: ['未累及', '累及'], options_en: ['Not involved', 'Involved'] }} onValues={seen} />,
    );
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Default 1' }));
    fireEvent.click(await screen.findByTitle('Involved'));
    expect(seen).toHaveBeenLastCalledWith('累及');
    unmount();
    const { unmount: u2 } = render(<DefaultHarness field={{ key: 'n', label: '大小', type: 'number', default: 5 }} onValues={seen} />);
    const n = screen.getByRole('spinbutton', { name: 'Default 1' });
    expect((n as HTMLInputElement).value).toBe('5');
    fireEvent.change(n, { target: { value: '12' } });
    expect(seen).toHaveBeenLastCalledWith(12);
    u2();
    render(<DefaultHarness field={{ key: 'b', label: '淋巴结', type: 'bool' }} onValues={seen} />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Default 1' }));
    fireEvent.click(await screen.findByTitle('No'));
    expect(seen).toHaveBeenLastCalledWith(false);
  });
});

describe('the rule editor', () => {
  it('shows the parts each rule type needs, labelled', async () => {
    await loadLanguage('en-US');
    await i18n.changeLanguage('en-US');
    const seen = vi.fn();
    const { unmount } = render(<RuleHarness start={{ type: 'splice', definition: {}, message: '' }} onChange={seen} />);
    const pattern = screen.getByLabelText('Sentence pattern');
    expect(screen.getByText(/\{histological_type\} \{tumour_size\}/)).toBeTruthy();
    fireEvent.change(pattern, { target: { value: '{histological_type}, {tumour_size} mm' } });
    expect(seen).toHaveBeenLastCalledWith({ type: 'splice', definition: { pattern: '{histological_type}, {tumour_size} mm' }, message: '' });
    fireEvent.change(screen.getByLabelText('Sentence pattern in English'), { target: { value: 'Size {tumour_size} mm' } });
    const both = { pattern: '{histological_type}, {tumour_size} mm', pattern_en: 'Size {tumour_size} mm' };
    expect(seen).toHaveBeenLastCalledWith({ type: 'splice', definition: both, message: '' });
    expect(describeRule({ type: 'splice', definition: both }, FIELDS, 'en-US')).toBe('Size {tumour_size} mm');
    expect(describeRule({ type: 'splice', definition: both }, FIELDS, 'zh-CN')).toBe('{histological_type}, {tumour_size} mm');
    fireEvent.change(screen.getByLabelText('Message in English'), { target: { value: 'Check the size' } });
    expect(seen).toHaveBeenLastCalledWith({ type: 'splice', definition: both, message: '', message_en: 'Check the size' });
    unmount();

    render(<RuleHarness start={{ type: 'calculation', definition: { field: 'ln_ratio' }, message: '' }} onChange={seen} />);
    expect(screen.getByText(/Available: tumour_size, ln_ratio/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Calculation'), { target: { value: 'tumour_size * 2' } });
    expect(seen).toHaveBeenLastCalledWith({ type: 'calculation', definition: { field: 'ln_ratio', expr: 'tumour_size * 2' }, message: '' });
    expect(screen.getByLabelText('Decimal places')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Condition' })).toBeNull();
  });

  it('a condition rule has its condition, a code rule one code per option', async () => {
    await loadLanguage('en-US');
    await i18n.changeLanguage('en-US');
    const seen = vi.fn();
    const { unmount } = render(
      <RuleHarness start={{ type: 'conditions', definition: { when: { field: 'histological_type', op: 'eq', value: 'NST' }, require: ['comment'] } }} onChange={seen} />,
    );
    expect(screen.getByRole('group', { name: 'Condition' })).toBeTruthy();
    expect(screen.getAllByLabelText('Fields that must be filled in').length).toBeGreaterThan(0);
    unmount();
    render(<RuleHarness start={{ type: 'code', definition: { field: 'histological_type', system: 'ICD-O-3' } }} onChange={seen} />);
    fireEvent.change(screen.getByLabelText('Code of "NST"'), { target: { value: '8500/3' } });
    expect(seen).toHaveBeenLastCalledWith({ type: 'code', definition: { field: 'histological_type', system: 'ICD-O-3', codes: { NST: '8500/3' } } });
    expect(screen.getByLabelText('Code of "Lobular"')).toBeTruthy();
  });

  it('describes rules for the table', () => {
    const d = (r: RuleDraft) => describeRule(r, FIELDS, 'en-US');
    expect(d({ type: 'calculation', definition: { field: 'ln_ratio', expr: 'a / b' } })).toBe('阳性率 = a / b');
    expect(d({ type: 'conditions', definition: { when: { field: 'histological_type', op: 'eq', value: 'NST' }, require: ['comment', 'tumour_size'] } })).toBe(
      'Histological type eq NST → 备注, Tumour size',
    );
    expect(d({ type: 'exclusion', definition: { when: { field: 'lvi', op: 'filled' }, second: { field: 'markers', op: 'in', value: ['ER', 'PR'] } } })).toBe(
      '脉管侵犯 filled ⊗ 标记 in ER|PR',
    );
  });
});
