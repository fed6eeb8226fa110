// The building blocks of the registration form's sections: a titled card, and
// a field helper that knows the quick mode (only required fields) and the
// draft mode (required fields may stay empty).
import type { ReactNode, RefObject } from 'react';
import { Card, Col, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Values } from './form';

export const COL = { xs: 24, md: 12, xl: 8, xxl: 6 };
export const WIDE = { xs: 24, xl: 12 };

export function Section({ id, title, extra, children }: { id: string; title: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <Card id={id} size="small" title={title} extra={extra} style={{ marginBottom: 16 }} styles={{ body: { padding: '16px 16px 0' } }}>
      {children}
    </Card>
  );
}

interface ItemOptions {
  required?: boolean;
  rules?: object[];
  col?: object;
  extra?: ReactNode;
  valuePropName?: string;
  dependencies?: (string | number)[][];
}

export function useFieldKit(quick: boolean, draftMode: RefObject<boolean>) {
  const { t } = useTranslation();
  /** Required unless saving a draft. */
  const req = (label: string) => ({
    validator: (_: unknown, v: unknown) =>
      draftMode.current || (v !== undefined && v !== null && !(typeof v === 'string' && !v.trim())) ? Promise.resolve() : Promise.reject(new Error(t('validation.required', { field: label }))),
  });
  /** When filled, ok(value) must hold. */
  const fmt = (ok: (v: string) => boolean, msg: string) => ({ validator: (_: unknown, v?: string) => (!v || ok(String(v)) ? Promise.resolve() : Promise.reject(new Error(msg))) });
  /** Quick mode shows the required fields only. */
  const show = (required: boolean) => !quick || required;
  const item = (name: keyof Values | (string | number)[], label: string, control: ReactNode, opts: ItemOptions = {}) =>
    show(!!opts.required) ? (
      <Col {...(opts.col ?? COL)} key={String(name)}>
        <Form.Item
          name={name as string}
          label={label}
          required={opts.required}
          rules={[...(opts.required ? [req(label)] : []), ...((opts.rules as never[]) ?? [])]}
          extra={opts.extra}
          valuePropName={opts.valuePropName}
          dependencies={opts.dependencies}
        >
          {control}
        </Form.Item>
      </Col>
    ) : null;
  const text = (rows = 2) => <Input.TextArea autoSize={{ minRows: rows, maxRows: 8 }} maxLength={2000} />;
  const enumOptions = (prefix: string, keys: string[]) => keys.map((k) => ({ value: k, label: t(`${prefix}.${k}`) }));
  return { t, req, fmt, show, item, text, enumOptions };
}

export type FieldKit = ReturnType<typeof useFieldKit>;
