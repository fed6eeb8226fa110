// The editor of one report rule: its type, then the parts that type needs,
// each labelled, choosing fields from the template's fields.
import { Form, Input, InputNumber, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { OPS, RULE_TYPES, type RuleCondition, type RuleDefinition, type StructField } from './api';
import { fieldLabel } from './StructuredForm';

export interface RuleDraft {
  type: (typeof RULE_TYPES)[number];
  definition: RuleDefinition;
  message?: string;
  message_en?: string;
}

interface Props {
  fields: readonly StructField[];
  value: RuleDraft;
  onChange: (v: RuleDraft) => void;
}

/** A short description of a rule for the rules table. */
export function describeRule(r: RuleDraft, fields: readonly StructField[], lang: string): string {
  const name = (k?: string) => {
    const f = fields.find((x) => x.key === k);
    return f ? fieldLabel(f, lang) : (k ?? '');
  };
  const cond = (c?: RuleCondition | null) => (c ? `${name(c.field)} ${c.op}${c.value !== undefined && c.value !== null ? ` ${Array.isArray(c.value) ? c.value.join('|') : String(c.value)}` : ''}` : '');
  const d = r.definition;
  switch (r.type) {
    case 'assignment':
      return `${cond(d.when)} → ${name(d.field)} = ${String(d.value ?? '')}`;
    case 'calculation':
      return `${name(d.field)} = ${d.expr ?? ''}`;
    case 'hint':
      return `${cond(d.when)} → ${r.message ?? ''}`;
    case 'code':
      return `${name(d.field)} → ${d.system ?? ''} (${Object.keys(d.codes ?? {}).length})`;
    case 'splice':
      return (!lang.startsWith('zh') && d.pattern_en) || d.pattern || '';
    case 'exclusion':
      return `${cond(d.when)} ⊗ ${cond(d.second)}`;
    case 'conditions':
      return `${cond(d.when)} → ${(d.require ?? []).map(name).join(', ')}`;
  }
  return '';
}

function ValueInput({ field, value, onChange, multiple, label }: { field?: StructField; value: unknown; onChange: (v: unknown) => void; multiple?: boolean; label: string }) {
  const { t } = useTranslation();
  if (!field) return <Input aria-label={label} disabled />;
  if (field.type === 'select' || field.type === 'multiselect' || multiple) {
    const opts = field.options?.length ? field.options.map((o) => ({ value: o, label: o })) : undefined;
    return (
      <Select
        aria-label={label}
        mode={multiple ? (opts ? 'multiple' : 'tags') : undefined}
        value={(value as string | string[] | undefined) ?? undefined}
        onChange={onChange}
        options={opts}
        allowClear
        placeholder={t('structured.choose')}
      />
    );
  }
  if (field.type === 'number') return <InputNumber aria-label={label} value={typeof value === 'number' ? value : null} onChange={onChange} style={{ width: '100%' }} />;
  if (field.type === 'bool') return <Switch aria-label={label} checked={value === true} onChange={onChange} />;
  return <Input aria-label={label} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />;
}

function ConditionEditor({ fields, value, onChange, label, testId }: { fields: readonly StructField[]; value?: RuleCondition | null; onChange: (c: RuleCondition) => void; label: string; testId: string }) {
  const { t, i18n } = useTranslation();
  const c: RuleCondition = value ?? { field: '', op: 'eq' };
  const field = fields.find((f) => f.key === c.field);
  const needsValue = c.op !== 'filled' && c.op !== 'empty';
  return (
    <Form.Item label={label} style={{ marginBottom: 12 }}>
      <div role="group" aria-label={label} style={{ display: 'flex', gap: 8 }} data-testid={testId}>
        <Select
          aria-label={`${label}: ${t('structured.rule.field')}`}
          style={{ flex: 2 }}
          value={c.field || undefined}
          placeholder={t('structured.rule.field')}
          onChange={(k: string) => onChange({ field: k, op: c.op, value: undefined })}
          options={fields.map((f) => ({ value: f.key, label: fieldLabel(f, i18n.language) }))}
        />
        <Select
          aria-label={`${label}: ${t('structured.rule.op')}`}
          style={{ flex: 1, minWidth: 110 }}
          value={c.op}
          onChange={(op: RuleCondition['op']) => onChange({ ...c, op, value: op === 'in' ? [] : undefined })}
          options={OPS.map((o) => ({ value: o, label: t(`structured.op.${o}`) }))}
        />
        {needsValue && (
          <div style={{ flex: 2 }}>
            <ValueInput field={field} value={c.value} multiple={c.op === 'in'} onChange={(v) => onChange({ ...c, value: v })} label={`${label}: ${t('structured.rule.value')}`} />
          </div>
        )}
      </div>
    </Form.Item>
  );
}

export function RuleEditor({ fields, value, onChange }: Props) {
  const { t, i18n } = useTranslation();
  const d = value.definition;
  const set = (patch: Partial<RuleDefinition>) => onChange({ ...value, definition: { ...d, ...patch } });
  const pick = (types?: string[]) =>
    fields.filter((f) => !types || types.includes(f.type)).map((f) => ({ value: f.key, label: `${fieldLabel(f, i18n.language)} (${f.key})` }));
  const target = fields.find((f) => f.key === d.field);
  const fieldSelect = (label: string, types?: string[]) => (
    <Form.Item label={label} htmlFor="rule-field" style={{ marginBottom: 12 }}>
      <Select id="rule-field" aria-label={label} value={d.field || undefined} onChange={(k: string) => set({ field: k, value: undefined, codes: undefined })} options={pick(types)} data-testid="rule-field" />
    </Form.Item>
  );
  return (
    <Form layout="vertical" component="div" data-testid="rule-editor">
      <Form.Item label={t('structured.rule.type')} htmlFor="rule-type" style={{ marginBottom: 12 }}>
        <Select
          id="rule-type"
          aria-label={t('structured.rule.type')}
          value={value.type}
          onChange={(type: RuleDraft['type']) => onChange({ type, definition: {}, message: value.message, message_en: value.message_en })}
          options={RULE_TYPES.map((x) => ({ value: x, label: t(`structured.ruleType.${x}`) }))}
          data-testid="rule-type"
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t(`structured.ruleHelp.${value.type}`)}
        </Typography.Text>
      </Form.Item>
      {(value.type === 'assignment' || value.type === 'hint' || value.type === 'exclusion' || value.type === 'conditions') && (
        <ConditionEditor fields={fields} value={d.when} onChange={(c) => set({ when: c })} label={t('structured.rule.when')} testId="rule-when" />
      )}
      {value.type === 'exclusion' && <ConditionEditor fields={fields} value={d.second} onChange={(c) => set({ second: c })} label={t('structured.rule.second')} testId="rule-second" />}
      {value.type === 'assignment' && (
        <>
          {fieldSelect(t('structured.rule.setField'))}
          <Form.Item label={t('structured.rule.setValue')} style={{ marginBottom: 12 }}>
            <ValueInput field={target} value={d.value} onChange={(v) => set({ value: v })} label={t('structured.rule.setValue')} />
          </Form.Item>
        </>
      )}
      {value.type === 'calculation' && (
        <>
          {fieldSelect(t('structured.rule.resultField'), ['number'])}
          <Form.Item
            label={t('structured.rule.expr')}
            required
            htmlFor="rule-expr"
            style={{ marginBottom: 12 }}
            extra={t('structured.rule.exprHelp', { keys: fields.filter((f) => f.type === 'number').map((f) => f.key).join(', ') })}
          >
            <Input id="rule-expr" value={d.expr ?? ''} onChange={(e) => set({ expr: e.target.value })} maxLength={500} className="tp-mono" data-testid="rule-expr" />
          </Form.Item>
          <Form.Item label={t('structured.rule.digits')} htmlFor="rule-digits" style={{ marginBottom: 12 }}>
            <InputNumber id="rule-digits" min={0} max={6} value={d.digits ?? 0} onChange={(v) => set({ digits: v ?? 0 })} />
          </Form.Item>
        </>
      )}
      {value.type === 'code' && (
        <>
          {fieldSelect(t('structured.rule.codeField'), ['select', 'multiselect'])}
          <Form.Item label={t('structured.rule.system')} htmlFor="rule-system" style={{ marginBottom: 12 }}>
            <Input id="rule-system" value={d.system ?? ''} onChange={(e) => set({ system: e.target.value })} maxLength={40} placeholder="ICD-O-3" />
          </Form.Item>
          {(target?.options ?? []).map((o, i) => (
            <Form.Item key={o} label={t('structured.rule.codeOf', { option: o })} htmlFor={`rule-code-${i}`} style={{ marginBottom: 8 }}>
              <Input
                id={`rule-code-${i}`}
                value={d.codes?.[o] ?? ''}
                maxLength={40}
                onChange={(e) => {
                  const codes = { ...(d.codes ?? {}) };
                  if (e.target.value) codes[o] = e.target.value;
                  else delete codes[o];
                  set({ codes });
                }}
              />
            </Form.Item>
          ))}
        </>
      )}
      {value.type === 'splice' && (
        <Form.Item
          label={t('structured.rule.pattern')}
          required
          htmlFor="rule-pattern"
          style={{ marginBottom: 12 }}
          extra={t('structured.rule.patternHelp', { keys: fields.map((f) => `{${f.key}}`).join(' ') })}
        >
          <Input.TextArea id="rule-pattern" autoSize={{ minRows: 3, maxRows: 10 }} maxLength={5000} value={d.pattern ?? ''} onChange={(e) => set({ pattern: e.target.value })} data-testid="rule-pattern" />
        </Form.Item>
      )}
      {value.type === 'splice' && (
        <Form.Item label={t('structured.rule.patternEn')} htmlFor="rule-pattern-en" style={{ marginBottom: 12 }} extra={t('structured.rule.patternEnHelp')}>
          <Input.TextArea
            id="rule-pattern-en"
            autoSize={{ minRows: 3, maxRows: 10 }}
            maxLength={5000}
            value={d.pattern_en ?? ''}
            onChange={(e) => set({ pattern_en: e.target.value })}
            data-testid="rule-pattern-en"
          />
        </Form.Item>
      )}
      {value.type === 'conditions' && (
        <Form.Item label={t('structured.rule.require')} htmlFor="rule-require" style={{ marginBottom: 12 }}>
          <Select id="rule-require" aria-label={t('structured.rule.require')} mode="multiple" value={d.require ?? []} onChange={(require: string[]) => set({ require })} options={pick()} data-testid="rule-require" />
        </Form.Item>
      )}
      <Form.Item label={t('structured.rule.message')} htmlFor="rule-message" required={value.type === 'hint'} style={{ marginBottom: 12 }} extra={t('structured.rule.messageHelp')}>
        <Input id="rule-message" value={value.message ?? ''} onChange={(e) => onChange({ ...value, message: e.target.value })} maxLength={500} data-testid="rule-message" />
      </Form.Item>
      <Form.Item label={t('structured.rule.messageEn')} htmlFor="rule-message-en" style={{ marginBottom: 12 }} extra={t('structured.rule.messageEnHelp')}>
        <Input id="rule-message-en" value={value.message_en ?? ''} onChange={(e) => onChange({ ...value, message_en: e.target.value })} maxLength={500} data-testid="rule-message-en" />
      </Form.Item>
    </Form>
  );
}
