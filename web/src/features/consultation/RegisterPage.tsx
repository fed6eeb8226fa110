import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, App, Button, Card, Checkbox, Col, DatePicker, Flex, Form, Input, Radio, Row, Select, Space, Spin, Switch, Tooltip, TreeSelect, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, ThunderboltOutlined, NumberOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api/errors';
import { useAuthInfo } from '../../lib/appData';
import { PageContainer } from '../../components/ui/PageContainer';
import { useCase, type CaseDetail, type CaseInput } from '../../entities/case/api';
import { useHospital } from '../../entities/org/api';
import { nextPathologyNumber, useCenterExperts, useLibraries, useSaveCase, type Library, type SaveMode } from './api';
import { AttachmentField, fullBodyCount, type AttachmentValue } from './AttachmentField';
import { isValidAge, isValidOtherId, isValidPathologyNumber, isValidPhone, parseIdCard, type AgeUnit } from './validators';
import { SlidePicker } from './SlidePicker';
import { useCaseActions } from './useCaseActions';

type Values = Omit<CaseInput, 'birthday' | 'inspection_date' | 'last_menses' | 'attachments'> & {
  birthday?: Dayjs | null;
  inspection_date?: Dayjs | null;
  last_menses?: Dayjs | null;
  attachments?: AttachmentValue[];
};

const DATE = 'YYYY-MM-DD';
const toDay = (s: string | null | undefined) => (s ? dayjs(s.slice(0, 10)) : null);
const emptySpecimen = () => ({ name: '', specimen_type: 'ex_specimen' as const, blocks: [{ name: '' }] });

interface TreeNode {
  value: number;
  title: string;
  children?: TreeNode[];
}

function libraryTree(libs: Library[] | null | undefined): TreeNode[] {
  return (libs ?? []).filter((l) => l.status === 1).map((l) => ({ value: l.id, title: l.name, children: l.children?.length ? libraryTree(l.children) : undefined }));
}

/** Form values from a saved case (its stored form JSON plus attachments and slides). */
export function valuesFromDetail(d: CaseDetail): Values {
  const c = (d.case ?? {}) as Partial<CaseInput>;
  return {
    ...c,
    age: c.age ?? (d.age !== null ? String(d.age) : undefined),
    birthday: toDay(c.birthday),
    inspection_date: toDay(c.inspection_date ?? d.inspection_date),
    last_menses: toDay(c.last_menses),
    specimens: d.specimens?.length
      ? d.specimens.map((s) => ({ name: s.name, part: s.part, specimen_type: (s.specimen_type || 'ex_specimen') as 'ex_specimen', count: s.count, fixative: s.fixative, blocks: (s.blocks ?? []).map((b) => ({ name: b.name, slide_number: b.slide_number, draw_part: b.draw_part, gross_description: b.gross_description })) }))
      : c.specimens?.length
        ? c.specimens
        : [emptySpecimen()],
    attachments: (d.attachments ?? []).map((a) => ({ file_id: a.file_id, type: a.type, filename: a.filename, size: a.size, url: a.url })),
    slide_ids: (d.slides ?? []).map((s) => s.id),
  };
}

/** The API body from the form. */
export function bodyFromValues(v: Values): CaseInput {
  const fmt = (d: Dayjs | null | undefined) => (d ? d.format(DATE) : undefined);
  const { attachments, birthday, inspection_date, last_menses, ...rest } = v;
  const body: CaseInput = {
    ...rest,
    birthday: fmt(birthday),
    inspection_date: fmt(inspection_date),
    last_menses: fmt(last_menses),
    attachments: (attachments ?? []).map((a) => ({ file_id: a.file_id, type: a.type })),
  };
  for (const k of Object.keys(body) as (keyof CaseInput)[]) if (body[k] === undefined || body[k] === null) delete body[k];
  return body;
}

/** "specimens.0.blocks.1.name" → ['specimens', 0, 'blocks', 1, 'name'] (list indexes are numbers in the form). */
export const toNamePath = (field: string) => field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));

function Section({ id, title, extra, children }: { id: string; title: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <Card id={id} size="small" title={title} extra={extra} style={{ marginBottom: 16 }} styles={{ body: { padding: '16px 16px 0' } }}>
      {children}
    </Card>
  );
}

const COL = { xs: 24, md: 12, xl: 8, xxl: 6 };

export default function RegisterPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const param = useParams().id;
  const id = param && param !== 'new' ? Number(param) : null;
  const [form] = Form.useForm();
  const [quick, setQuick] = useState(false);
  const [summary, setSummary] = useState<string[]>([]);
  const draftMode = useRef(false);
  const detail = useCase(id);
  const info = useAuthInfo();
  const hospitalRef = info.data?.hospitals?.[0];
  const hospital = useHospital(hospitalRef?.id);
  const libs = useLibraries();
  const save = useSaveCase();
  const { run, holder } = useCaseActions();
  const centerId = Form.useWatch('center_id', form);
  const libraryId = Form.useWatch('library_id', form);
  const idType = Form.useWatch('id_type', form) ?? 'id_card';
  const gender = Form.useWatch('gender', form);
  const experts = useCenterExperts(centerId);
  const expertSelect = hospital.data?.expert_select ?? 0;
  const centers = useMemo(() => hospital.data?.centers ?? info.data?.centers ?? [], [hospital.data, info.data]);
  const [numbering, setNumbering] = useState(false);
  const locked = !!id && !!detail.data && !(detail.data.actions ?? []).includes('update');

  // Fill the form once: from the saved case, or defaults for a new one.
  const filled = useRef<number | 'new' | null>(null);
  useEffect(() => {
    if (id === null && filled.current !== 'new' && hospital.data !== undefined) {
      filled.current = 'new';
      form.setFieldsValue({
        age_unit: 'year',
        id_type: 'id_card',
        gender: undefined,
        inspection_hospital: hospital.data?.name ?? hospitalRef?.name,
        inspection_date: dayjs(),
        specimens: [emptySpecimen()],
        attachments: [],
        slide_ids: [],
        center_id: centers.length === 1 ? centers[0].id : undefined,
        expert_id: hospital.data?.default_expert_id ?? undefined,
        expedite: false,
        secret: false,
      });
    } else if (id !== null && detail.data && filled.current !== id) {
      filled.current = id;
      form.resetFields();
      form.setFieldsValue(valuesFromDetail(detail.data));
    }
  }, [id, detail.data, hospital.data, hospitalRef, centers, form]);
  // A new case with no hospital record (e.g. the lookup failed) still gets defaults.
  useEffect(() => {
    if (id === null && hospital.isError && filled.current !== 'new') {
      filled.current = 'new';
      form.setFieldsValue({ age_unit: 'year', id_type: 'id_card', inspection_hospital: hospitalRef?.name, inspection_date: dayjs(), specimens: [emptySpecimen()], attachments: [], slide_ids: [] });
    }
  }, [id, hospital.isError, hospitalRef, form]);

  const req = (label: string) => ({
    validator: (_: unknown, v: unknown) =>
      draftMode.current || (v !== undefined && v !== null && !(typeof v === 'string' && !v.trim())) ? Promise.resolve() : Promise.reject(new Error(t('validation.required', { field: label }))),
  });
  const fmt = (ok: (v: string) => boolean, msg: string) => ({ validator: (_: unknown, v?: string) => (!v || ok(String(v)) ? Promise.resolve() : Promise.reject(new Error(msg))) });

  const suggestNumber = async () => {
    if (!libraryId) return void message.warning(t('case.register.pickLibraryFirst'));
    setNumbering(true);
    try {
      form.setFieldsValue({ pathology_number: await nextPathologyNumber(libraryId) });
      void form.validateFields(['pathology_number']);
    } catch (e) {
      void message.error((e as Error).message);
    } finally {
      setNumbering(false);
    }
  };

  const onIdNumber = () => {
    if ((form.getFieldValue('id_type') ?? 'id_card') !== 'id_card') return;
    const info = parseIdCard(form.getFieldValue('id_number') ?? '');
    if (!info) return;
    const patch: Partial<Values> = {};
    if (!form.getFieldValue('birthday')) patch.birthday = dayjs(info.birthday);
    if (!form.getFieldValue('gender')) patch.gender = info.gender;
    if (!form.getFieldValue('age')) patch.age = String(Math.max(0, dayjs().diff(dayjs(info.birthday), 'year')));
    form.setFieldsValue(patch);
  };

  const submit = async (mode: SaveMode | 'charge') => {
    draftMode.current = mode === 'draft';
    setSummary([]);
    let values: Values;
    try {
      values = (await form.validateFields()) as Values;
    } catch (e) {
      const errs = (e as { errorFields?: { name: (string | number)[]; errors: string[] }[] }).errorFields ?? [];
      if (errs[0]) form.scrollToField(errs[0].name, { block: 'center' });
      void message.error(t('case.register.fixErrors', { count: errs.length }));
      return;
    } finally {
      draftMode.current = false;
    }
    const body = bodyFromValues({ ...form.getFieldsValue(true), ...values });
    try {
      const saved = await save.mutateAsync({ id, mode: mode === 'draft' ? 'draft' : 'save', body });
      if (mode === 'draft') {
        void message.success(t('case.register.draftSaved'));
        if (!id) navigate(`/case/register/${saved.id}`, { replace: true });
        filled.current = saved.id;
        return;
      }
      void message.success(t('case.register.saved'));
      const ref = { id: saved.id, consult_no: saved.consult_no || saved.pathology_number, patient_name: saved.patient_name, charge_status: saved.charge_status, center_id: saved.center_id };
      if (mode === 'charge') {
        filled.current = saved.id;
        if (!id) navigate(`/case/register/${saved.id}`, { replace: true });
        run(saved.charge_status === 2 ? 'submit' : 'charge_submit', [ref], { onDone: () => navigate('/case/manage') });
      } else navigate('/case/manage');
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length) {
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name: toNamePath(name), errors })));
        setSummary(Object.entries(e.fieldErrors).flatMap(([, errs]) => errs));
        const first = Object.keys(e.fieldErrors)[0];
        form.scrollToField(toNamePath(first), { block: 'center' });
      }
      void message.error(e instanceof Error ? e.message : String(e));
    }
  };

  // Ctrl+S saves a draft, Ctrl+Enter saves.
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey)) return;
    if (e.key === 's' || e.key === 'S') {
      e.preventDefault();
      void submit('draft');
    } else if (e.key === 'Enter') {
      e.preventDefault();
      void submit('save');
    }
  };

  const show = (required: boolean) => !quick || required;
  const item = (name: keyof Values | (string | number)[], label: string, control: ReactNode, opts: { required?: boolean; rules?: object[]; col?: object; extra?: ReactNode; valuePropName?: string; onBlur?: () => void; dependencies?: (string | number)[][] } = {}) =>
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
  const wide = { xs: 24, xl: 12 };
  const text = (rows = 2) => <Input.TextArea autoSize={{ minRows: rows, maxRows: 8 }} maxLength={2000} />;
  const enumOptions = (prefix: string, keys: string[]) => keys.map((k) => ({ value: k, label: t(`${prefix}.${k}`) }));
  const ageUnit = (Form.useWatch('age_unit', form) ?? 'year') as AgeUnit;

  const title = id ? t('case.register.editTitle') : t('case.register.title');
  if (id && detail.isLoading) return <Spin style={{ display: 'block', margin: '120px auto' }} />;

  return (
    <div onKeyDown={onKeyDown}>
      <PageContainer
        title={title}
        subtitle={id && detail.data ? `${detail.data.consult_no || t('case.noNumberYet')} · ${detail.data.status_label?.label ?? ''}` : t('case.register.subtitle')}
        extra={
          <Space>
            <Tooltip title={t('case.register.quickHint')}>
              <Space size={6}>
                <Switch checked={quick} onChange={setQuick} data-testid="quick-toggle" aria-label={t('case.register.quick')} />
                <Typography.Text>{t('case.register.quick')}</Typography.Text>
              </Space>
            </Tooltip>
          </Space>
        }
      >
        {locked && <Alert type="warning" showIcon message={t('case.register.locked')} style={{ marginBottom: 16 }} />}
        {summary.length > 0 && (
          <Alert type="error" showIcon closable onClose={() => setSummary([])} message={t('case.register.serverErrors')} description={<ul style={{ margin: 0, paddingInlineStart: 18 }}>{summary.map((s, i) => <li key={i}>{s}</li>)}</ul>} style={{ marginBottom: 16 }} />
        )}
        <Form form={form} layout="vertical" name="case-register" disabled={locked} scrollToFirstError={false} data-testid="case-register-form" requiredMark>
          <Section id="sec-pathology" title={t('case.section.pathology')}>
            <Row gutter={16}>
              {item('library_id', t('case.field.library'), <TreeSelect treeData={libraryTree(libs.data)} loading={libs.isLoading} treeDefaultExpandAll showSearch treeNodeFilterProp="title" placeholder={t('list.selectPlaceholder')} allowClear />, { required: true })}
              {show(true) && (
                <Col {...COL}>
                  <Form.Item label={t('case.field.pathologyNumber')} required>
                    <Space.Compact style={{ width: '100%' }}>
                      <Form.Item name="pathology_number" noStyle rules={[req(t('case.field.pathologyNumber')), fmt(isValidPathologyNumber, t('case.rule.pathologyChars'))]}>
                        <Input className="tp-mono" maxLength={40} aria-label={t('case.field.pathologyNumber')} />
                      </Form.Item>
                      <Tooltip title={t('case.register.nextNumberHint')}>
                        <Button icon={<NumberOutlined />} loading={numbering} onClick={() => void suggestNumber()} data-testid="next-number">
                          {t('case.register.nextNumber')}
                        </Button>
                      </Tooltip>
                    </Space.Compact>
                  </Form.Item>
                </Col>
              )}
              {item('original_pathology_number', t('case.field.originalPathologyNumber'), <Input className="tp-mono" maxLength={40} />, { required: true, rules: [fmt(isValidPathologyNumber, t('case.rule.pathologyChars'))] })}
            </Row>
          </Section>

          <Section id="sec-patient" title={t('case.section.patient')}>
            <Row gutter={16}>
              {item('name', t('case.field.name'), <Input maxLength={50} autoFocus={!id} />, { required: true })}
              {item('gender', t('case.field.gender'), <Radio.Group options={enumOptions('case.gender', ['male', 'female', 'unknown'])} optionType="button" />, { required: true })}
              {show(true) && (
                <Col {...COL}>
                  <Form.Item label={t('case.field.age')} required>
                    <Space.Compact style={{ width: '100%' }}>
                      <Form.Item name="age" noStyle dependencies={['age_unit']} rules={[req(t('case.field.age')), fmt((v) => isValidAge(v, ageUnit), t('case.rule.age'))]}>
                        <Input inputMode="numeric" maxLength={5} style={{ width: '60%' }} aria-label={t('case.field.age')} data-testid="age-input" />
                      </Form.Item>
                      <Form.Item name="age_unit" noStyle>
                        <Select style={{ width: '40%' }} options={enumOptions('case.ageUnitName', ['year', 'month', 'day'])} aria-label={t('case.field.ageUnit')} />
                      </Form.Item>
                    </Space.Compact>
                  </Form.Item>
                </Col>
              )}
              {item('phone', t('case.field.phone'), <Input inputMode="tel" maxLength={20} data-testid="phone-input" />, { required: true, rules: [fmt(isValidPhone, t('case.rule.phone'))] })}
              {item('id_type', t('case.field.idType'), <Select options={enumOptions('case.idType', ['id_card', 'officer_card', 'passport', 'hk_macao_pass'])} />)}
              {show(false) && (
                <Col {...COL}>
                  <Form.Item
                    name="id_number"
                    label={t('case.field.idNumber')}
                    dependencies={['id_type']}
                    rules={[fmt((v) => (idType === 'id_card' ? parseIdCard(v) !== null : isValidOtherId(v)), idType === 'id_card' ? t('case.rule.idCard') : t('case.rule.idOther'))]}
                  >
                    <Input className="tp-mono" maxLength={32} onBlur={onIdNumber} data-testid="id-number-input" />
                  </Form.Item>
                </Col>
              )}
              {item('birthday', t('case.field.birthday'), <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs())} />, {
                dependencies: [['id_number'], ['id_type']],
                rules: [
                  {
                    validator: (_: unknown, v: Dayjs | null) => {
                      if (!v || form.getFieldValue('id_type') !== 'id_card') return Promise.resolve();
                      const p = parseIdCard(form.getFieldValue('id_number') ?? '');
                      return !p || p.birthday === v.format(DATE) ? Promise.resolve() : Promise.reject(new Error(t('case.rule.birthdayMismatch')));
                    },
                  },
                ],
              })}
              {item('nation', t('case.field.nation'), <Input maxLength={20} />)}
              {item('career', t('case.field.career'), <Input maxLength={50} />)}
              {item('is_married', t('case.field.married'), <Select allowClear options={enumOptions('case.married', ['married', 'unmarried', 'widowed', 'divorced'])} />)}
              {item('birthplace', t('case.field.birthplace'), <Input maxLength={100} />, { col: wide })}
            </Row>
          </Section>

          <Section id="sec-inspection" title={t('case.section.inspection')}>
            <Row gutter={16}>
              {item('inspection_hospital', t('case.field.inspectionHospital'), <Input maxLength={100} />, { required: true })}
              {item('inspection_date', t('case.field.inspectionDate'), <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs().add(1, 'day'))} />, { required: true })}
              {item('inspection_department', t('case.field.inspectionDepartment'), <Input maxLength={50} />)}
              {item('inspection_doctor', t('case.field.inspectionDoctor'), <Input maxLength={50} />)}
              {item('outpatient_number', t('case.field.outpatientNumber'), <Input maxLength={40} />)}
              {item('admission_number', t('case.field.admissionNumber'), <Input maxLength={40} />)}
              {item('bed_no', t('case.field.bedNo'), <Input maxLength={20} />)}
              {item('ward', t('case.field.ward'), <Input maxLength={50} />)}
              {item('treat_type', t('case.field.treatType'), <Select allowClear options={enumOptions('case.treatType', ['clinic', 'hospital', 'physical_exam', 'clinic_to_hospital'])} />)}
              {item('fee_type', t('case.field.feeType'), <Select allowClear options={enumOptions('case.feeType', ['self_pay', 'cooperative'])} />)}
            </Row>
          </Section>

          {!quick && (
            <Section id="sec-clinical" title={t('case.section.clinical')}>
              <Row gutter={16}>
                {item('clinical_diagnosis', t('case.field.clinicalDiagnosis'), text(2), { col: wide })}
                {item('consult_purpose', t('case.field.consultPurpose'), text(2), { col: wide })}
                {item('medical_history', t('case.field.medicalHistory'), text(3), { col: wide })}
                {item('operation_seen', t('case.field.operationSeen'), text(3), { col: wide })}
                {item('generally_seen', t('case.field.generallySeen'), text(2), { col: wide })}
                {item('other_tests', t('case.field.otherTests'), text(2), { col: wide })}
                {item('immunohistochemisty', t('case.field.immunohistochemistry'), text(2), { col: wide })}
                {item('infectious_specimen', t('case.field.infectious'), <Checkbox>{t('case.field.infectiousYes')}</Checkbox>, { valuePropName: 'checked' })}
                {gender !== 'male' && item('last_menses', t('case.field.lastMenses'), <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs())} />)}
                {gender !== 'male' && item('menopause', t('case.field.menopause'), <Checkbox>{t('case.field.menopauseYes')}</Checkbox>, { valuePropName: 'checked' })}
              </Row>
            </Section>
          )}

          <Section id="sec-specimens" title={t('case.section.specimens')}>
            <Form.List
              name="specimens"
              rules={[{ validator: async (_, list?: unknown[]) => (draftMode.current || (list?.length ?? 0) > 0 ? undefined : Promise.reject(new Error(t('case.rule.needSpecimen')))) }]}
            >
              {(fields, { add, remove }, { errors }) => (
                <>
                  {fields.map((f, i) => (
                    <Card
                      key={f.key}
                      size="small"
                      type="inner"
                      title={t('case.specimen.title', { n: i + 1 })}
                      style={{ marginBottom: 12 }}
                      extra={
                        <Tooltip title={fields.length === 1 ? t('case.specimen.onlyOne') : undefined}>
                          <Button type="text" danger size="small" icon={<DeleteOutlined />} disabled={fields.length === 1} onClick={() => remove(f.name)} data-testid={`specimen-remove-${i}`}>
                            {t('common.delete')}
                          </Button>
                        </Tooltip>
                      }
                    >
                      <Row gutter={16}>
                        <Col xs={24} md={12} xl={8}>
                          <Form.Item name={[f.name, 'name']} label={t('case.specimen.name')} required rules={[req(t('case.specimen.name'))]}>
                            <Input maxLength={100} data-testid={`specimen-name-${i}`} />
                          </Form.Item>
                        </Col>
                        {show(false) && (
                          <>
                            <Col xs={24} md={12} xl={4}>
                              <Form.Item name={[f.name, 'specimen_type']} label={t('case.specimen.type')}>
                                <Select options={enumOptions('case.specimenType', ['ex_specimen', 'ex_paraffin_block', 'ex_slide'])} />
                              </Form.Item>
                            </Col>
                            <Col xs={24} md={12} xl={4}>
                              <Form.Item name={[f.name, 'part']} label={t('case.specimen.part')}>
                                <Input maxLength={100} />
                              </Form.Item>
                            </Col>
                            <Col xs={12} md={6} xl={3}>
                              <Form.Item name={[f.name, 'count']} label={t('case.specimen.count')} rules={[fmt((v) => /^\d{1,4}$/.test(v), t('case.rule.count'))]} normalize={(v: string) => (v === '' || v === undefined ? undefined : /^\d+$/.test(v) ? Number(v) : v)}>
                                <Input inputMode="numeric" maxLength={4} />
                              </Form.Item>
                            </Col>
                            <Col xs={12} md={6} xl={5}>
                              <Form.Item name={[f.name, 'fixative']} label={t('case.specimen.fixative')}>
                                <Input maxLength={50} placeholder={t('case.specimen.fixativeExample')} />
                              </Form.Item>
                            </Col>
                          </>
                        )}
                      </Row>
                      <Form.List
                        name={[f.name, 'blocks']}
                        rules={[{ validator: async (_, list?: unknown[]) => (draftMode.current || (list?.length ?? 0) > 0 ? undefined : Promise.reject(new Error(t('case.rule.needBlock')))) }]}
                      >
                        {(blocks, blockOps, { errors: blockErrors }) => (
                          <div style={{ background: '#f7f9fc', borderRadius: 6, padding: '10px 12px 2px', marginBottom: 12 }}>
                            <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
                              {t('case.block.title')}
                            </Typography.Text>
                            {blocks.map((b, j) => (
                              <Row gutter={8} key={b.key} align="top">
                                <Col xs={24} md={6} xl={4}>
                                  <Form.Item name={[b.name, 'name']} rules={[req(t('case.block.name'))]} style={{ marginBottom: 8 }}>
                                    <Input placeholder={t('case.block.name')} aria-label={t('case.block.name')} maxLength={50} data-testid={`block-name-${i}-${j}`} />
                                  </Form.Item>
                                </Col>
                                {show(false) && (
                                  <>
                                    <Col xs={24} md={5} xl={4}>
                                      <Form.Item name={[b.name, 'slide_number']} style={{ marginBottom: 8 }}>
                                        <Input placeholder={t('case.block.slideNumber')} aria-label={t('case.block.slideNumber')} maxLength={50} />
                                      </Form.Item>
                                    </Col>
                                    <Col xs={24} md={5} xl={5}>
                                      <Form.Item name={[b.name, 'draw_part']} style={{ marginBottom: 8 }}>
                                        <Input placeholder={t('case.block.drawPart')} aria-label={t('case.block.drawPart')} maxLength={100} />
                                      </Form.Item>
                                    </Col>
                                    <Col xs={24} md={6} xl={9}>
                                      <Form.Item name={[b.name, 'gross_description']} style={{ marginBottom: 8 }}>
                                        <Input placeholder={t('case.block.gross')} aria-label={t('case.block.gross')} maxLength={2000} />
                                      </Form.Item>
                                    </Col>
                                  </>
                                )}
                                <Col flex="none">
                                  <Tooltip title={blocks.length === 1 ? t('case.block.onlyOne') : t('common.delete')}>
                                    <Button type="text" danger icon={<DeleteOutlined />} disabled={blocks.length === 1} onClick={() => blockOps.remove(b.name)} aria-label={t('common.delete')} />
                                  </Tooltip>
                                </Col>
                              </Row>
                            ))}
                            <Form.ErrorList errors={blockErrors} />
                            <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => blockOps.add({ name: '' })} style={{ marginBottom: 10 }} data-testid={`block-add-${i}`}>
                              {t('case.block.add')}
                            </Button>
                          </div>
                        )}
                      </Form.List>
                    </Card>
                  ))}
                  <Form.ErrorList errors={errors} />
                  <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add(emptySpecimen())} style={{ marginBottom: 16 }} data-testid="specimen-add">
                    {t('case.specimen.add')}
                  </Button>
                </>
              )}
            </Form.List>
          </Section>

          {!quick && (
            <Section id="sec-attachments" title={t('case.section.attachments')}>
              <Form.Item name="attachments" rules={[{ validator: (_, v?: AttachmentValue[]) => (fullBodyCount(v) > 1 ? Promise.reject(new Error(t('case.rule.oneFullBody'))) : Promise.resolve()) }]}>
                <AttachmentField />
              </Form.Item>
            </Section>
          )}

          {!quick && (
            <Section id="sec-slides" title={t('case.section.slides')}>
              <Form.Item name="slide_ids">
                <SlidePicker caseId={id} />
              </Form.Item>
            </Section>
          )}

          <Section id="sec-target" title={t('case.section.target')}>
            <Row gutter={16}>
              {item('center_id', t('case.field.center'), <Select options={centers.map((c) => ({ value: c.id, label: c.name }))} placeholder={t('list.selectPlaceholder')} onChange={() => form.setFieldsValue({ expert_id: undefined })} showSearch optionFilterProp="label" notFoundContent={t('case.register.noCenters')} />, { required: true })}
              {expertSelect > 0 &&
                item('expert_id', t('case.field.expert'), <Select allowClear showSearch optionFilterProp="label" loading={experts.isLoading} options={(experts.data ?? []).map((e) => ({ value: e.id, label: e.name }))} placeholder={centerId ? t('case.expert.placeholder') : t('case.expert.pickCenter')} />, {
                  required: expertSelect === 2,
                  extra: expertSelect === 1 ? t('case.register.expertOptional') : undefined,
                })}
              {item('expedite', t('case.field.expedite'), <Switch checkedChildren={<ThunderboltOutlined />} />, { valuePropName: 'checked', required: false, col: { xs: 12, md: 6, xl: 4 } })}
              {item('secret', t('case.field.secret'), <Switch />, { valuePropName: 'checked', col: { xs: 12, md: 6, xl: 4 } })}
            </Row>
          </Section>
        </Form>
        <Flex justify="space-between" align="center" wrap gap={12} style={{ position: 'sticky', bottom: 0, background: '#fff', borderTop: '1px solid #e6ebf2', padding: '12px 0 0', marginTop: 8, zIndex: 2 }}>
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            {t('case.register.keys')}
          </Typography.Text>
          <Space wrap>
            <Button onClick={() => navigate(-1)}>{t('common.cancel')}</Button>
            {(!id || detail.data?.is_draft === 1) && (
              <Button onClick={() => void submit('draft')} loading={save.isPending} disabled={locked} data-testid="save-draft">
                {t('case.register.saveDraft')}
              </Button>
            )}
            <Button onClick={() => void submit('save')} loading={save.isPending} disabled={locked} data-testid="save-case">
              {t('case.register.save')}
            </Button>
            <Button type="primary" onClick={() => void submit('charge')} loading={save.isPending} disabled={locked} data-testid="save-charge">
              {t('case.register.saveCharge')}
            </Button>
          </Space>
        </Flex>
      </PageContainer>
      {holder}
    </div>
  );
}

