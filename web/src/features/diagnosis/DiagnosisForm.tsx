// The diagnosis text fields and the list of earlier versions.
import { Button, Collapse, Descriptions, Flex, Form, Input, Radio, Select, Tag, Typography } from 'antd';
import { FilePdfOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useApiError } from '../../components/ui/useApiError';
import { previewReport, reportFilename, type Diagnosis } from './api';
import type { DraftFields } from './useDraft';
import type { CaretBinder } from './useCaretInsert';

type TextField = Exclude<keyof DraftFields, 'frozen_verdict' | 'report_class'>;

/** The intra-operative verdicts of a frozen diagnosis. */
export const FROZEN_VERDICTS = ['benign', 'malignant', 'deferred'] as const;

const FIELDS: { key: TextField; label: string; rows: number; max: number }[] = [
  { key: 'microscopic', label: 'diagnosis.field.microscopic', rows: 5, max: 5000 },
  { key: 'opinion', label: 'diagnosis.field.opinion', rows: 4, max: 5000 },
  { key: 'gross_description', label: 'diagnosis.field.gross', rows: 2, max: 5000 },
  { key: 'remark', label: 'diagnosis.field.remark', rows: 1, max: 2000 },
  { key: 'critical_values', label: 'diagnosis.field.critical', rows: 1, max: 2000 },
];

/** The most characters a diagnosis field takes. */
export const fieldMax = (k: keyof DraftFields) => FIELDS.find((f) => f.key === k)?.max ?? 2000;

interface Props {
  values: DraftFields;
  readOnly: boolean;
  onChange: (k: keyof DraftFields, v: string) => void;
  /** Lets a term be inserted at the caret of the field last focused. */
  bind?: CaretBinder;
  /** A frozen case: the intra-operative verdict is chosen above the text. */
  frozen?: boolean;
  /** The report classes of the case's center (report_class setting); none: no choice shown. */
  reportClasses?: readonly string[] | null;
}

/** The report class picker: shown when the center has classes, or a class is saved. */
function ReportClassField({ value, classes, readOnly, onChange }: { value: string; classes: readonly string[]; readOnly: boolean; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  if (!classes.length && !value) return null;
  const options = (classes.includes(value) || !value ? classes : [...classes, value]).map((c) => ({ value: c, label: c }));
  return (
    <Form.Item style={{ marginBottom: 10 }} label={t('diagnosis.field.reportClass')} htmlFor="diagnosis-report-class">
      <Select
        id="diagnosis-report-class"
        allowClear
        disabled={readOnly}
        value={value || undefined}
        onChange={(v?: string) => onChange(v ?? '')}
        options={options}
        placeholder={t('diagnosis.field.reportClassPlaceholder')}
        style={{ maxWidth: 320 }}
        data-testid="field-report_class"
      />
    </Form.Item>
  );
}

export function DiagnosisFields({ values, readOnly, onChange, bind, frozen, reportClasses }: Props) {
  const { t } = useTranslation();
  return (
    <Form layout="vertical" component="div" style={{ marginBottom: 4 }}>
      <ReportClassField value={values.report_class ?? ''} classes={reportClasses ?? []} readOnly={readOnly} onChange={(v) => onChange('report_class', v)} />
      {frozen && (
        <Form.Item style={{ marginBottom: 10 }} label={t('diagnosis.frozenVerdict.label')}>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            disabled={readOnly}
            value={values.frozen_verdict || undefined}
            onChange={(e) => onChange('frozen_verdict', String(e.target.value))}
            options={FROZEN_VERDICTS.map((v) => ({ value: v, label: t(`diagnosis.frozenVerdict.${v}`) }))}
            data-testid="frozen-verdict"
          />
        </Form.Item>
      )}
      {FIELDS.map((f) => (
        <Form.Item
          key={f.key}
          style={{ marginBottom: 10 }}
          required={f.key === 'opinion'}
          label={t(f.label)}
        >
          <Input.TextArea
            {...bind?.(f.key)}
            value={values[f.key]}
            readOnly={readOnly}
            variant={readOnly ? 'filled' : 'outlined'}
            onChange={(e) => onChange(f.key, e.target.value)}
            autoSize={{ minRows: f.rows, maxRows: f.rows * 3 + 4 }}
            maxLength={f.max}
            placeholder={readOnly ? '' : t(`${f.label}Placeholder`)}
            data-testid={`field-${f.key}`}
            aria-label={t(f.label)}
            style={f.key === 'critical_values' && values.critical_values ? { borderColor: '#ff4d4f' } : undefined}
          />
        </Form.Item>
      ))}
    </Form>
  );
}

const STATUS_COLOUR: Record<string, string> = { draft: 'default', to_review: 'processing', approved: 'success', returned: 'error', published: 'green' };

/** The state of an unpublished supplement: draft, to review (new), accepted or rejected (spec 2 §5). */
export function SupplementStatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOUR[status] ?? 'default'} bordered={false} style={{ fontWeight: 'normal' }} data-testid="supplement-status">
      {t(`diagnosis.supplement.status.${status}`)}
    </Tag>
  );
}

/**
 * Earlier versions (published reports and supplements), newest first, folded. Every
 * version stays visible and marked: its kind and number, and whether a later report of
 * the same kind replaced it. With consultNo, each published one has its own PDF.
 */
export function VersionList({ versions, consultNo }: { versions: readonly Diagnosis[]; consultNo?: string }) {
  const { t } = useTranslation();
  const showError = useApiError();
  const shown = [...versions].filter((v) => v.status === 'published' || v.type === 1).sort((a, b) => b.type - a.type || b.version - a.version);
  if (!shown.length) return null;
  const superseded = (v: Diagnosis) => v.status === 'published' && shown.some((o) => o.type === v.type && o.status === 'published' && o.version > v.version);
  return (
    <Collapse
      size="small"
      style={{ marginTop: 12, background: '#fff' }}
      defaultActiveKey={shown[0] ? [String(shown[0].id)] : []}
      items={shown.map((v) => ({
        key: String(v.id),
        extra:
          consultNo !== undefined && v.status === 'published' ? (
            <Button
              size="small"
              type="link"
              icon={<FilePdfOutlined />}
              onClick={(e) => {
                e.stopPropagation();
                previewReport(v.consult_id, v.id, reportFilename(consultNo, v)).catch(showError);
              }}
              data-testid={`version-pdf-${v.id}`}
            >
              PDF
            </Button>
          ) : undefined,
        label: (
          <Flex gap={6} align="center" wrap data-testid={`version-${v.type}-${v.version}`}>
            <Tag color={v.type === 1 ? 'purple' : 'blue'} bordered={false}>
              {v.type === 1 ? t('diagnosis.version.supplement') : t('diagnosis.version.normal')} v{v.version}
            </Tag>
            <Tag color={STATUS_COLOUR[v.status] ?? 'default'} bordered={false}>
              {t(v.type === 1 && v.status !== 'published' ? `diagnosis.supplement.status.${v.status}` : `diagnosis.status.${v.status}`)}
            </Tag>
            {superseded(v) && (
              <Tag color="orange" bordered={false}>
                {t('diagnosis.version.superseded')}
              </Tag>
            )}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {v.doctor_name} · {formatDateTime(v.published_at ?? v.updated_at)}
            </Typography.Text>
          </Flex>
        ),
        children: (
          <Descriptions
            size="small"
            column={1}
            styles={{ label: { width: 150, verticalAlign: 'top' }, content: { whiteSpace: 'pre-wrap' } }}
            items={[
              ...FIELDS.filter((f) => v[f.key]).map((f) => ({ key: f.key, label: t(f.label), children: v[f.key] })),
              ...(v.report_no ? [{ key: 'no', label: t('diagnosis.field.reportNo'), children: <span className="tp-mono">{v.report_no}</span> }] : []),
              // Under the report number, as the PDF prints it.
              ...(v.report_class ? [{ key: 'class', label: t('diagnosis.field.reportClass'), children: v.report_class }] : []),
              ...(v.verify_code ? [{ key: 'vc', label: t('diagnosis.field.verifyCode'), children: <span className="tp-mono">{v.verify_code}</span> }] : []),
              ...(v.release_at ? [{ key: 'rel', label: t('diagnosis.field.releaseAt'), children: formatDateTime(v.release_at) }] : []),
              ...(v.reviewer_name ? [{ key: 'rv', label: t('diagnosis.field.reviewer'), children: v.reviewer_name }] : []),
            ]}
          />
        ),
      }))}
    />
  );
}
