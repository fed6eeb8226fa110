// The first tab of the workspace's case side: patient and clinical data, and the
// slides as thumbnails (the expert starts here).
import type { ReactNode } from 'react';
import { Descriptions, Empty, Flex, Spin, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useViewerInfo } from '../../lib/slideViewer';
import { shownSlides, type CaseDetail, type Slide } from '../../entities/case/api';
import { ageText } from '../../entities/case/age';
import { InfectiousAlert } from '../../entities/case/InfectiousAlert';

type CaseForm = Record<string, unknown>;

function useText() {
  const { t } = useTranslation();
  const none = <Typography.Text type="secondary">—</Typography.Text>;
  return {
    t,
    v: (x: unknown): ReactNode => (x === undefined || x === null || x === '' ? none : String(x)),
    long: (x: unknown): ReactNode => (x ? <span style={{ whiteSpace: 'pre-wrap' }}>{String(x)}</span> : none),
  };
}

export function CaseInfoOverview({ d }: { d: CaseDetail }) {
  const { t, v, long } = useText();
  const c = (d.case ?? {}) as CaseForm;
  const gender = c.gender ?? d.gender;
  return (
    <Flex vertical gap={12}>
      <InfectiousAlert c={c} />
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }}
        styles={{ label: { width: 110, whiteSpace: 'nowrap' } }}
        items={[
          { key: 'name', label: t('case.field.name'), children: v(c.name ?? d.patient_name) },
          { key: 'gender', label: t('case.field.gender'), children: gender ? t(`case.gender.${String(gender)}`) : '—' },
          { key: 'age', label: t('case.field.age'), children: ageText(t, d.age, d.age_unit) },
          { key: 'pn', label: t('case.field.pathologyNumber'), children: <span className="tp-mono">{d.pathology_number || '—'}</span> },
          { key: 'hos', label: t('case.field.hospital'), children: v(d.hospital_name) },
          { key: 'lib', label: t('case.field.library'), children: v(d.library_name) },
          ...(c.inspection_hospital && c.inspection_hospital !== d.hospital_name ? [{ key: 'ih', label: t('case.field.inspectionHospital'), children: v(c.inspection_hospital) }] : []),
          { key: 'dept', label: t('case.field.inspectionDepartment'), children: v(c.inspection_department) },
          { key: 'doc', label: t('case.field.inspectionDoctor'), children: v(c.inspection_doctor) },
          { key: 'date', label: t('case.field.inspectionDate'), children: v(typeof c.inspection_date === 'string' ? c.inspection_date.slice(0, 10) : d.inspection_date?.slice(0, 10)) },
          { key: 'sub', label: t('case.field.submittedAt'), children: formatDateTime(d.submitted_at) },
          { key: 'due', label: t('case.field.timeoutAt'), children: formatDateTime(d.timeout_at) },
        ]}
      />
      <Descriptions
        size="small"
        bordered
        column={1}
        styles={{ label: { width: 110, whiteSpace: 'nowrap', verticalAlign: 'top' } }}
        items={[
          { key: 'cd', label: t('case.field.clinicalDiagnosis'), children: long(c.clinical_diagnosis) },
          { key: 'mh', label: t('case.field.medicalHistory'), children: long(c.medical_history) },
          { key: 'os', label: t('case.field.operationSeen'), children: long(c.operation_seen) },
          { key: 'gs', label: t('case.field.generallySeen'), children: long(c.generally_seen) },
          { key: 'ot', label: t('case.field.otherTests'), children: long(c.other_tests) },
          { key: 'ihc', label: t('case.field.immunohistochemistry'), children: long(c.immunohistochemisty) },
          { key: 'cp', label: t('case.field.consultPurpose'), children: long(c.consult_purpose) },
          ...(d.delay_days ? [{ key: 'delay', label: t('diagnosis.delayed'), children: t('diagnosis.delayedText', { days: d.delay_days, reason: d.delay_reason }) }] : []),
        ]}
      />
      <SlideThumbs d={d} />
    </Flex>
  );
}

/** One slide as a thumbnail card; a click opens it in the viewer (new tab). */
function SlideThumb({ s, caseId }: { s: Slide; caseId: number }) {
  const { t } = useTranslation();
  const info = useViewerInfo(s.viewable ? s.id : null);
  const box = { width: 168, height: 112, borderRadius: 6, background: '#f3f5f8', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' } as const;
  const img = info.data?.thumbnail_url ? (
    <img src={info.data.thumbnail_url} alt={s.filename} style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
  ) : info.isLoading ? (
    <Spin size="small" />
  ) : (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {s.error ? t('case.slide.failed') : t('case.slide.notViewable')}
    </Typography.Text>
  );
  const body = (
    <Flex vertical gap={4} style={{ width: 168 }}>
      <div style={box}>{img}</div>
      <Typography.Text ellipsis={{ tooltip: s.filename }} style={{ fontSize: 12 }}>
        {s.filename}
      </Typography.Text>
    </Flex>
  );
  return s.viewable ? (
    <Link to={`/slide/view/${s.id}?case=${caseId}`} target="_blank" data-testid={`slide-thumb-${s.id}`} title={t('diagnosis.openViewer')}>
      {body}
    </Link>
  ) : (
    body
  );
}

/** The case's slides as thumbnails, on the first tab: the expert starts here. */
function SlideThumbs({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const slides = shownSlides(d.slides);
  return (
    <div data-testid="slide-strip">
      <Typography.Text strong>
        {t('case.section.slides')} <Typography.Text type="secondary">({slides.length})</Typography.Text>
      </Typography.Text>
      {slides.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.slide.none')} />
      ) : (
        <Flex gap={12} wrap style={{ marginTop: 8 }}>
          {slides.map((s) => (
            <SlideThumb key={s.id} s={s} caseId={d.id} />
          ))}
        </Flex>
      )}
    </div>
  );
}
