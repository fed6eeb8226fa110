import type { ReactNode } from 'react';
import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import type { CaseDetail, CaseInput } from '../../entities/case/api';
import { ageText } from '../../entities/case/age';
import { ChargeTag } from '../../entities/case/tags';
import { SpecimenTable } from '../../entities/case/SpecimenTable';
import { InfectiousAlert } from '../../entities/case/InfectiousAlert';

function useText() {
  const { t } = useTranslation();
  return {
    t,
    v: (x: unknown): ReactNode => (x === undefined || x === null || x === '' ? <Typography.Text type="secondary">—</Typography.Text> : String(x)),
    e: (prefix: string, x: unknown): ReactNode => (x ? t(`${prefix}.${String(x)}`) : <Typography.Text type="secondary">—</Typography.Text>),
    b: (x: unknown): ReactNode => (x ? t('case.yes') : t('case.no')),
    long: (x: unknown): ReactNode => (x ? <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{String(x)}</Typography.Paragraph> : <Typography.Text type="secondary">—</Typography.Text>),
  };
}

/** The case's registration: patient, inspection, clinical data, pathology and specimens. */
export function CaseOverview({ d }: { d: CaseDetail }) {
  const { t, v, e, b, long } = useText();
  const c = (d.case ?? {}) as Partial<CaseInput>;
  const desc = (title: string, items: { label: string; children: ReactNode; span?: number }[]) => (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }} title={title} items={items.map((i, k) => ({ key: k, ...i }))} style={{ marginBottom: 20 }} styles={{ label: { width: 130, whiteSpace: 'nowrap' } }} />
  );
  return (
    <>
      {(c.infectious_specimen || !!c.infectious_agents?.length) && (
        <div style={{ marginBottom: 16 }}>
          <InfectiousAlert c={c} />
        </div>
      )}
      {desc(t('case.section.patient'), [
        { label: t('case.field.name'), children: v(c.name ?? d.patient_name) },
        { label: t('case.field.gender'), children: e('case.gender', c.gender ?? d.gender) },
        { label: t('case.field.age'), children: ageText(t, d.age, d.age_unit) },
        { label: t('case.field.idType'), children: e('case.idType', c.id_type) },
        { label: t('case.field.idNumber'), children: v(c.id_number) },
        { label: t('case.field.birthday'), children: v(c.birthday) },
        { label: t('case.field.phone'), children: v(c.phone) },
        { label: t('case.field.nation'), children: v(c.nation) },
        { label: t('case.field.career'), children: v(c.career) },
        { label: t('case.field.married'), children: e('case.married', c.is_married) },
        { label: t('case.field.birthplace'), children: v(c.birthplace), span: 2 },
      ])}
      {desc(t('case.section.inspection'), [
        { label: t('case.field.inspectionHospital'), children: v(c.inspection_hospital) },
        { label: t('case.field.inspectionDepartment'), children: v(c.inspection_department) },
        { label: t('case.field.inspectionDoctor'), children: v(c.inspection_doctor) },
        { label: t('case.field.inspectionDate'), children: v(c.inspection_date?.slice(0, 10)) },
        { label: t('case.field.outpatientNumber'), children: v(c.outpatient_number) },
        { label: t('case.field.admissionNumber'), children: v(c.admission_number) },
        { label: t('case.field.bedNo'), children: v(c.bed_no) },
        { label: t('case.field.ward'), children: v(c.ward) },
        { label: t('case.field.treatType'), children: e('case.treatType', c.treat_type) },
        { label: t('case.field.feeType'), children: e('case.feeType', c.fee_type) },
      ])}
      {desc(t('case.section.clinical'), [
        { label: t('case.field.clinicalDiagnosis'), children: long(c.clinical_diagnosis), span: 3 },
        { label: t('case.field.medicalHistory'), children: long(c.medical_history), span: 3 },
        { label: t('case.field.operationSeen'), children: long(c.operation_seen), span: 3 },
        { label: t('case.field.generallySeen'), children: long(c.generally_seen), span: 3 },
        { label: t('case.field.otherTests'), children: long(c.other_tests), span: 3 },
        { label: t('case.field.immunohistochemistry'), children: long(c.immunohistochemisty), span: 3 },
        { label: t('case.field.infectious'), children: c.infectious_agents?.length ? c.infectious_agents.join(', ') : b(c.infectious_specimen) },
        { label: t('case.field.lastMenses'), children: v(c.last_menses) },
        { label: t('case.field.menopause'), children: b(c.menopause) },
        { label: t('case.field.consultPurpose'), children: long(c.consult_purpose), span: 3 },
      ])}
      {desc(t('case.section.pathology'), [
        { label: t('case.field.library'), children: v(d.library_name) },
        { label: t('case.field.pathologyNumber'), children: <span className="tp-mono">{d.pathology_number || '—'}</span> },
        { label: t('case.field.originalPathologyNumber'), children: <span className="tp-mono">{c.original_pathology_number || '—'}</span> },
        { label: t('case.field.center'), children: v(d.center_name) },
        { label: t('case.field.expert'), children: d.expert_name || <Typography.Text type="secondary">{t('case.unassigned')}</Typography.Text> },
        { label: t('case.field.staff'), children: v(d.staff_name) },
        { label: t('case.field.chargeStatus'), children: <ChargeTag status={d.charge_status} /> },
        { label: t('case.field.createdAt'), children: formatDateTime(d.created_at) },
        { label: t('case.field.submittedAt'), children: formatDateTime(d.submitted_at) },
        { label: t('case.field.timeoutAt'), children: formatDateTime(d.timeout_at) },
      ])}
      <Typography.Title level={5}>{t('case.section.specimens')}</Typography.Title>
      <SpecimenTable specimens={d.specimens} />
    </>
  );
}
