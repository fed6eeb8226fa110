// The form of a structured template, generated from its fields: one labelled
// input per field (text, number with its unit, select, multiselect, yes/no),
// the server's problems shown under the field they concern.
import { Checkbox, Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { StructField, StructValues } from './api';

/** The field's label in the interface language. */
export function fieldLabel(f: Pick<StructField, 'label' | 'label_en'>, lang: string) {
  return !lang.startsWith('zh') && f.label_en ? f.label_en : f.label;
}

/** A template's name in the interface language: its English name when there is one. */
export function templateName(x: { name: string; name_en?: string | null }, lang: string) {
  return (!lang.startsWith('zh') && x.name_en) || x.name;
}

/** How an option reads in the interface language: its English text when there is one. */
export function optionLabel(f: Pick<StructField, 'options' | 'options_en'>, option: string, lang: string) {
  if (lang.startsWith('zh')) return option;
  const i = (f.options ?? []).indexOf(option);
  return (i >= 0 && f.options_en?.[i]) || option;
}

/** The values a new form starts with: each field's default. */
export function initialValues(fields: readonly StructField[]): StructValues {
  const out: StructValues = {};
  for (const f of fields) if (f.default !== undefined && f.default !== null) out[f.key] = f.default;
  return out;
}

interface Props {
  fields: readonly StructField[];
  values: StructValues;
  onChange: (values: StructValues) => void;
  /** Problems by field key (blocking errors first, then hints). */
  errors?: Record<string, string[]>;
  hints?: Record<string, string[]>;
  /** Values the rules compute: shown read-only. */
  computed?: readonly string[];
  disabled?: boolean;
}

export function StructuredForm({ fields, values, onChange, errors = {}, hints = {}, computed = [], disabled }: Props) {
  const { t, i18n } = useTranslation();
  const set = (k: string, v: unknown) => {
    const next = { ...values };
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) delete next[k];
    else next[k] = v;
    onChange(next);
  };
  return (
    <Form layout="vertical" component="div" data-testid="structured-form">
      {fields.map((f) => {
        const label = fieldLabel(f, i18n.language);
        const id = `sf-${f.key}`;
        const v = values[f.key];
        const readOnly = disabled || computed.includes(f.key);
        const errs = errors[f.key] ?? [];
        const tips = hints[f.key] ?? [];
        let input;
        switch (f.type) {
          case 'number':
            input = (
              <InputNumber
                id={id}
                aria-label={label}
                value={typeof v === 'number' ? v : null}
                onChange={(x) => set(f.key, x)}
                addonAfter={f.unit || undefined}
                disabled={readOnly}
                style={{ width: '100%' }}
                data-testid={`sf-${f.key}`}
              />
            );
            break;
          case 'select':
            input = (
              <Select
                id={id}
                aria-label={label}
                allowClear
                showSearch
                value={typeof v === 'string' ? v : undefined}
                onChange={(x) => set(f.key, x)}
                options={(f.options ?? []).map((o) => ({ value: o, label: optionLabel(f, o, i18n.language) }))}
                optionFilterProp="label"
                disabled={readOnly}
                placeholder={t('structured.choose')}
                data-testid={`sf-${f.key}`}
              />
            );
            break;
          case 'multiselect':
            input = (
              <div id={id} role="group" aria-label={label}>
                <Checkbox.Group
                  value={Array.isArray(v) ? (v as string[]) : []}
                  onChange={(x) => set(f.key, x)}
                  options={(f.options ?? []).map((o) => ({ value: o, label: optionLabel(f, o, i18n.language) }))}
                  disabled={readOnly}
                  data-testid={`sf-${f.key}`}
                />
              </div>
            );
            break;
          case 'bool':
            input = (
              <Switch
                id={id}
                aria-label={label}
                checked={v === true}
                onChange={(x) => set(f.key, x)}
                disabled={readOnly}
                checkedChildren={t('structured.yes')}
                unCheckedChildren={t('structured.no')}
                data-testid={`sf-${f.key}`}
              />
            );
            break;
          default:
            input = (
              <Input
                id={id}
                aria-label={label}
                value={typeof v === 'string' ? v : ''}
                onChange={(e) => set(f.key, e.target.value)}
                suffix={f.unit || undefined}
                maxLength={2000}
                disabled={readOnly}
                data-testid={`sf-${f.key}`}
              />
            );
        }
        return (
          <Form.Item
            key={f.key}
            label={
              <>
                {f.required && (
                  <span aria-hidden style={{ color: '#ff4d4f', marginInlineEnd: 4 }}>
                    *
                  </span>
                )}
                {label}
              </>
            }
            htmlFor={id}
            style={{ marginBottom: 12 }}
            validateStatus={errs.length ? 'error' : tips.length ? 'warning' : undefined}
            help={errs.length || tips.length ? [...errs, ...tips].join('；') : undefined}
            extra={computed.includes(f.key) ? t('structured.computed') : undefined}
          >
            {input}
          </Form.Item>
        );
      })}
    </Form>
  );
}
