// The sections of the registration form (the specimens have their own file).
import { Button, Checkbox, Col, DatePicker, Form, Input, Radio, Row, Select, Space, Switch, Tooltip, TreeSelect, type RadioGroupProps } from 'antd';
import { NumberOutlined, ThunderboltOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { isValidAge, isValidOtherId, isValidPathologyNumber, isValidPhone, parseIdCard, type AgeUnit } from '../validators';
import { DATE, libraryTree } from './form';
import { COL, Section, WIDE, type FieldKit } from './fields';
import type { RegisterForm } from './useRegisterForm';

interface Props {
  r: RegisterForm;
  k: FieldKit;
}

/** Library and pathology numbers (with the next free number on request). */
export function PathologySection({ r, k }: Props) {
  const { t, item, show, fmt, req } = k;
  const { libs, numbering, suggestNumber } = r;
  return (
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
  );
}

/** The patient: name, sex, age, contact and identity (an ID card fills birthday, sex and age). */
export function PatientSection({ r, k }: Props) {
  const { t, item, show, fmt, req, enumOptions } = k;
  const { form, id, idType, onIdNumber } = r;
  const ageUnit = (Form.useWatch('age_unit', form) ?? 'year') as AgeUnit;
  return (
    <Section id="sec-patient" title={t('case.section.patient')}>
      <Row gutter={16}>
        {item('name', t('case.field.name'), <Input maxLength={50} autoFocus={!id} />, { required: true })}
        {item('gender', t('case.field.gender'), <RadioField label={t('case.field.gender')} options={enumOptions('case.gender', ['male', 'female', 'unknown'])} optionType="button" />, { required: true })}
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
        {item('birthplace', t('case.field.birthplace'), <Input maxLength={100} />, { col: WIDE })}
      </Row>
    </Section>
  );
}

/** Where and when the specimen was taken. */
export function InspectionSection({ k }: Pick<Props, 'k'>) {
  const { t, item, enumOptions } = k;
  return (
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
  );
}

/** Clinical data (not in quick mode). */
export function ClinicalSection({ r, k }: Props) {
  const { t, item, text } = k;
  const { gender, infectious, formOptions } = r;
  const agentOptions = formOptions?.infectious_specimen ?? [];
  return (
    <Section id="sec-clinical" title={t('case.section.clinical')}>
      <Row gutter={16}>
        {item('clinical_diagnosis', t('case.field.clinicalDiagnosis'), text(2), { col: WIDE })}
        {item('consult_purpose', t('case.field.consultPurpose'), text(2), { col: WIDE })}
        {item('medical_history', t('case.field.medicalHistory'), text(3), { col: WIDE })}
        {item('operation_seen', t('case.field.operationSeen'), text(3), { col: WIDE })}
        {item('generally_seen', t('case.field.generallySeen'), text(2), { col: WIDE })}
        {item('other_tests', t('case.field.otherTests'), text(2), { col: WIDE })}
        {item('immunohistochemisty', t('case.field.immunohistochemistry'), text(2), { col: WIDE })}
        {item('infectious_specimen', t('case.field.infectious'), <Checkbox>{t('case.field.infectiousYes')}</Checkbox>, { valuePropName: 'checked' })}
        {infectious && agentOptions.length > 0 &&
          item('infectious_agents', t('case.field.infectiousAgents'), <Select mode="multiple" allowClear options={agentOptions.map((a) => ({ value: a, label: a }))} placeholder={t('list.selectPlaceholder')} data-testid="infectious-agents" />)}
        {gender !== 'male' && item('last_menses', t('case.field.lastMenses'), <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs())} />)}
        {gender !== 'male' && item('menopause', t('case.field.menopause'), <Checkbox>{t('case.field.menopauseYes')}</Checkbox>, { valuePropName: 'checked' })}
      </Row>
    </Section>
  );
}

/** The center (and, as the hospital allows, the expert) the case goes to. */
export function TargetSection({ r, k }: Props) {
  const { t, item } = k;
  const { form, centers, expertSelect, experts, centerId } = r;
  return (
    <Section id="sec-target" title={t('case.section.target')}>
      <Row gutter={16}>
        {item('center_id', t('case.field.center'), <Select options={centers.map((c) => ({ value: c.id, label: c.name }))} placeholder={t('list.selectPlaceholder')} onChange={() => form.setFieldsValue({ expert_id: undefined })} showSearch optionFilterProp="label" notFoundContent={t('case.register.noCenters')} />, { required: true })}
        {expertSelect > 0 &&
          item('expert_id', t('case.field.expert'), <Select allowClear showSearch optionFilterProp="label" loading={experts.isLoading} options={(experts.data ?? []).map((e) => ({ value: e.id, label: e.subspecialty ? `${e.name} · ${t('case.expert.subspecialtyTag')}` : e.name }))} placeholder={centerId ? t('case.expert.placeholder') : t('case.expert.pickCenter')} />, {
            required: expertSelect === 2,
            extra: expertSelect === 1 ? t('case.register.expertOptional') : undefined,
          })}
        {item('expedite', t('case.field.expedite'), <Switch checkedChildren={<ThunderboltOutlined />} />, { valuePropName: 'checked', required: false, col: { xs: 12, md: 6, xl: 4 } })}
        {item('secret', t('case.field.secret'), <Switch />, { valuePropName: 'checked', col: { xs: 12, md: 6, xl: 4 } })}
      </Row>
    </Section>
  );
}

/**
 * A radio group as a form control: the aria states the form item gives its
 * control (required, invalid, described by) go on a radiogroup element, where
 * they are allowed, not on antd's plain wrapper.
 */
function RadioField({ label, 'aria-required': required, 'aria-invalid': invalid, 'aria-describedby': describedBy, ...props }: RadioGroupProps & { label: string; 'aria-required'?: boolean; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) {
  return (
    <div role="radiogroup" aria-label={label} aria-required={required} aria-invalid={invalid} aria-describedby={describedBy}>
      <Radio.Group {...props} />
    </div>
  );
}
