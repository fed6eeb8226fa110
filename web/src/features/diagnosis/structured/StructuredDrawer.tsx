// The structured report of the expert's diagnosis: choose a template of the
// case's report kind, fill in its fields and see, as you type, what the
// server's rules make of them (computed values, codes, hints, blocking
// problems, the diagnosis sentence). Apply writes the sentence into the
// diagnosis and keeps the values with the draft; publishing checks them again.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Card, Drawer, Empty, Flex, Radio, Select, Space, Tag, Typography } from 'antd';
import { FormOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../../components/ui/useApiError';
import { evaluate, useRules, useSaveStructured, useStructTemplates, type StructResult, type StructValues } from './api';
import { StructuredForm, initialValues, templateName } from './StructuredForm';

interface Props {
  caseId: number;
  libraryId: number | null | undefined;
  /** The values saved with the draft, if any. */
  saved?: { templateId: number | null | undefined; values: StructValues | null | undefined };
  disabled?: boolean;
  /** Writes the text into the diagnosis (replacing or after what is there). */
  onApply: (text: string, mode: 'replace' | 'append') => void;
}

export const EVALUATE_DELAY = 350;

/** The problems of a result by field key. */
export function byField(list: readonly { field?: string; message: string }[] | undefined) {
  const out: Record<string, string[]> = {};
  for (const p of list ?? []) if (p.field) (out[p.field] ??= []).push(p.message);
  return out;
}

export function StructuredButton(props: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" icon={<FormOutlined />} disabled={props.disabled} onClick={() => setOpen(true)} data-testid="structured-open">
        {t('structured.open')}
      </Button>
      {open && <StructuredDrawer {...props} onClose={() => setOpen(false)} />}
    </>
  );
}

function StructuredDrawer({ caseId, libraryId, saved, onApply, onClose }: Props & { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const list = useStructTemplates(libraryId ? { enabled: true, library_id: libraryId } : { enabled: true, kind: 'routine' });
  const templates = useMemo(() => list.data ?? [], [list.data]);
  const [templateId, setTemplateId] = useState<number | undefined>(saved?.templateId ?? undefined);
  const template = templates.find((x) => x.id === templateId);
  const fields = useMemo(() => template?.fields ?? [], [template]);
  const rules = useRules(template?.id);
  const computed = useMemo(() => (rules.data ?? []).filter((r) => r.type === 'calculation').map((r) => r.definition.field ?? ''), [rules.data]);
  const [values, setValues] = useState<StructValues>({});
  const [result, setResult] = useState<StructResult | null>(null);
  const [mode, setMode] = useState<'replace' | 'append'>('replace');
  const save = useSaveStructured(caseId);
  const seq = useRef(0);

  // One template offered: take it.
  useEffect(() => {
    if (templateId === undefined && templates.length === 1) setTemplateId(templates[0]!.id);
  }, [templates, templateId]);
  // A template chosen: the saved values if they are its, else its defaults.
  useEffect(() => {
    if (!template) return;
    setValues(saved?.templateId === template.id && saved.values ? { ...saved.values } : initialValues(template.fields ?? []));
    setResult(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [template?.id]);
  // Ask the server, a moment after the last change (re-renders with the same
  // values do not restart the wait).
  const asked = template ? JSON.stringify([template.id, values]) : '';
  const errorRef = useRef(showError);
  errorRef.current = showError;
  useEffect(() => {
    if (!asked) return;
    const [id, vals] = JSON.parse(asked) as [number, StructValues];
    const n = ++seq.current;
    const timer = setTimeout(() => {
      evaluate(id, vals).then(
        (r) => n === seq.current && setResult(r),
        (e) => n === seq.current && errorRef.current(e),
      );
    }, EVALUATE_DELAY);
    return () => clearTimeout(timer);
  }, [asked]);

  // Computed fields show the server's values.
  const shown = useMemo(() => {
    const out = { ...values };
    for (const k of computed) {
      if (result?.values && k in result.values) out[k] = result.values[k];
      else delete out[k];
    }
    return out;
  }, [values, computed, result]);
  const errors = result?.errors ?? [];
  const hints = result?.hints ?? [];

  const apply = () => {
    if (!template || !result) return;
    save.mutate(
      { template_id: template.id, values: result.values ?? {} },
      {
        onSuccess: () => {
          if (result.text) onApply(result.text, mode);
          void message.success(errors.length ? t('structured.appliedWithProblems') : t('structured.applied'));
          onClose();
        },
        onError: (e) => showError(e),
      },
    );
  };

  return (
    <Drawer
      open
      title={t('structured.title')}
      width={720}
      onClose={onClose}
      keyboard
      destroyOnHidden
      data-testid="structured-drawer"
      footer={
        <Flex justify="space-between" align="center" gap={12}>
          <Radio.Group
            size="small"
            value={mode}
            onChange={(e) => setMode(e.target.value as 'replace' | 'append')}
            options={[
              { value: 'replace', label: t('structured.replace') },
              { value: 'append', label: t('structured.append') },
            ]}
            aria-label={t('structured.mode')}
          />
          <Space>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" disabled={!result || !template} loading={save.isPending} onClick={apply} data-testid="structured-apply">
              {t('structured.apply')}
            </Button>
          </Space>
        </Flex>
      }
    >
      <Flex vertical gap={12}>
        <label htmlFor="structured-template">
          <Typography.Text strong>{t('structured.template')}</Typography.Text>
        </label>
        <Select
          id="structured-template"
          aria-label={t('structured.template')}
          loading={list.isLoading}
          value={templateId}
          onChange={setTemplateId}
          options={templates.map((x) => ({ value: x.id, label: templateName(x, i18n.language) }))}
          placeholder={t('structured.chooseTemplate')}
          notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('structured.noTemplates')} />}
          data-testid="structured-template"
        />
        {template && (
          <Flex gap={16} align="flex-start" wrap>
            <div style={{ flex: '1 1 340px', minWidth: 300 }}>
              <StructuredForm fields={fields} values={shown} onChange={setValues} errors={byField(errors)} computed={computed} />
            </div>
            <Flex vertical gap={10} style={{ flex: '1 1 260px', minWidth: 240, position: 'sticky', top: 0 }}>
              {errors.length > 0 ? (
                <Alert
                  type="error"
                  showIcon
                  message={t('structured.problems', { count: errors.length })}
                  description={
                    <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                      {errors.map((p, i) => (
                        <li key={i}>{p.message}</li>
                      ))}
                    </ul>
                  }
                  data-testid="structured-errors"
                />
              ) : (
                result && <Alert type="success" showIcon message={t('structured.noProblems')} data-testid="structured-ok" />
              )}
              {hints.map((h, i) => (
                <Alert key={i} type="warning" showIcon message={h.message} data-testid="structured-hint" />
              ))}
              <Card size="small" title={t('structured.preview')} data-testid="structured-preview">
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }} type={result?.text ? undefined : 'secondary'}>
                  {result?.text || t('structured.previewEmpty')}
                </Typography.Paragraph>
              </Card>
              {(result?.codes?.length ?? 0) > 0 && (
                <Flex gap={6} wrap align="center" data-testid="structured-codes">
                  <Typography.Text type="secondary">{t('structured.codes')}</Typography.Text>
                  {(result?.codes ?? []).map((c) => (
                    <Tag key={`${c.field}-${c.value}`} color="blue" bordered={false}>
                      {c.system ? `${c.system} ` : ''}
                      {c.code}
                    </Tag>
                  ))}
                </Flex>
              )}
            </Flex>
          </Flex>
        )}
      </Flex>
    </Drawer>
  );
}
