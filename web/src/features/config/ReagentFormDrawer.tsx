import { Col, DatePicker, Form, Input, Radio, Row } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FormDrawer, useRecordDrawer } from '../../components/ui/FormDrawer';
import { useStatusOptions } from '../../components/ui/StatusTag';
import { useReagent, useSaveReagent, type ReagentInput } from './api';

export function ReagentFormDrawer({ id, open, onClose }: { id: number | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const statusOptions = useStatusOptions();
  const drawer = useRecordDrawer<ReagentInput, ReagentInput>({ open, id, record: useReagent(open ? id : null), defaults: { status: 1 }, save: useSaveReagent(id), onClose });
  const required = (field: string) => [{ required: true, whitespace: true, message: t('validation.required', { field }) }];

  return (
    <FormDrawer title={t(id === null ? 'reagent.create' : 'reagent.edit')} {...drawer} testId="reagent-drawer">
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="name" label={t('reagent.field.name')} rules={required(t('reagent.field.name'))} extra={t('reagent.nameHint')}>
            <Input autoFocus maxLength={100} data-testid="reagent-name" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="clone" label={t('reagent.field.clone')}>
            <Input maxLength={100} data-testid="reagent-clone" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="vendor" label={t('reagent.field.vendor')}>
            <Input maxLength={100} data-testid="reagent-vendor" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="lot" label={t('reagent.field.lot')}>
            <Input maxLength={50} data-testid="reagent-lot" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="expires_on"
            label={t('reagent.field.expiresOn')}
            rules={[{ required: true, message: t('validation.required', { field: t('reagent.field.expiresOn') }) }]}
            getValueProps={(v?: string) => ({ value: v ? dayjs(v) : undefined })}
            normalize={(d?: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : undefined)}
          >
            <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} data-testid="reagent-expires" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="status" label={t('reagent.field.status')}>
            <Radio.Group options={statusOptions} />
          </Form.Item>
        </Col>
      </Row>
    </FormDrawer>
  );
}
