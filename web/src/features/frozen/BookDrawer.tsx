import { useEffect, useMemo } from 'react';
import { Alert, App, Col, DatePicker, Form, Input, Row, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FormDrawer } from '../../components/ui/FormDrawer';
import { useApiError } from '../../components/ui/useApiError';
import { useHospital } from '../../entities/org/api';
import { useAuthInfo } from '../../lib/appData';
import { useBook, useResubmit, type Appointment, type BookInput } from './api';

type Values = Omit<BookInput, 'operation_at'> & { operation_at: Dayjs };

/** The site books a frozen section for a planned operation, or changes a returned one and sends it again. */
export function BookDrawer({ open, onClose, returned }: { open: boolean; onClose: () => void; returned?: Appointment | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const info = useAuthInfo();
  const hospital = useHospital(info.data?.hospitals?.[0]?.id);
  // The centers the site's hospital sends its cases to.
  const options = useMemo(() => (hospital.data?.centers ?? info.data?.centers ?? []).map((c) => ({ value: c.id, label: c.name })), [hospital.data, info.data]);
  const centers = { data: options, isLoading: hospital.isLoading };
  const book = useBook();
  const resubmit = useResubmit();
  const saving = book.isPending || resubmit.isPending;
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (returned) {
      const { center_id, patient_name, gender, age, operating_room, surgeon, phone, specimen_site, clinical_question } = returned;
      form.setFieldsValue({ center_id, patient_name, gender: gender as Values['gender'], age, operating_room, surgeon, phone, specimen_site, clinical_question, operation_at: dayjs(returned.operation_at) });
      return;
    }
    const only = options.length === 1 ? options[0].value : undefined;
    form.setFieldsValue({ center_id: only, gender: 'unknown' });
  }, [open, form, options, returned]);
  const req = (field: string) => [{ required: true, whitespace: true, message: t('validation.required', { field }) }];
  const finish = (v: Values) => {
    const input = { ...v, operation_at: v.operation_at.toISOString() };
    const done = {
      onSuccess: () => {
        void message.success(t('frozen.done.book'));
        onClose();
      },
      onError: (e: unknown) => showError(e, form),
    };
    if (returned) resubmit.mutate({ id: returned.id, input }, done);
    else book.mutate(input, done);
  };
  return (
    <FormDrawer
      title={returned ? t('frozen.action.resubmit') : t('frozen.book')}
      open={open}
      form={form}
      saving={saving}
      onClose={onClose}
      onFinish={finish}
      testId="frozen-book-drawer"
      width={560}
    >
      {returned?.return_reason && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('frozen.returnedBecause', { reason: returned.return_reason })} data-testid="frozen-returned-reason" />}
      <Form.Item name="center_id" label={t('frozen.field.center')} rules={[{ required: true, message: t('validation.required', { field: t('frozen.field.center') }) }]}>
        <Select options={centers.data ?? []} loading={centers.isLoading} data-testid="frozen-center" />
      </Form.Item>
      <Row gutter={16}>
        <Col span={10}>
          <Form.Item name="patient_name" label={t('frozen.field.patient')} rules={req(t('frozen.field.patient'))}>
            <Input maxLength={100} data-testid="frozen-patient" />
          </Form.Item>
        </Col>
        <Col span={7}>
          <Form.Item name="gender" label={t('frozen.field.gender')}>
            <Select options={['male', 'female', 'unknown'].map((g) => ({ value: g, label: t(`frozen.gender.${g}`) }))} />
          </Form.Item>
        </Col>
        <Col span={7}>
          <Form.Item name="age" label={t('frozen.field.age')}>
            <Input maxLength={3} inputMode="numeric" data-testid="frozen-age" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={14}>
          <Form.Item name="operation_at" label={t('frozen.field.operationAt')} rules={[{ required: true, message: t('validation.required', { field: t('frozen.field.operationAt') }) }]}>
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} data-testid="frozen-operation-at" />
          </Form.Item>
        </Col>
        <Col span={10}>
          <Form.Item name="operating_room" label={t('frozen.field.room')}>
            <Input maxLength={100} data-testid="frozen-room" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="surgeon" label={t('frozen.field.surgeon')} rules={req(t('frozen.field.surgeon'))}>
            <Input maxLength={100} data-testid="frozen-surgeon" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="phone" label={t('frozen.field.phone')} rules={req(t('frozen.field.phone'))}>
            <Input maxLength={40} data-testid="frozen-phone" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="specimen_site" label={t('frozen.field.specimenSite')} rules={req(t('frozen.field.specimenSite'))}>
        <Input maxLength={200} data-testid="frozen-specimen-site" />
      </Form.Item>
      <Form.Item name="clinical_question" label={t('frozen.field.question')}>
        <Input.TextArea rows={3} maxLength={2000} data-testid="frozen-question" />
      </Form.Item>
    </FormDrawer>
  );
}
