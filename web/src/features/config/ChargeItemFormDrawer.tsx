import { Col, Form, Input, InputNumber, Radio, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDrawer, useRecordDrawer } from '../../components/ui/FormDrawer';
import { useStatusOptions } from '../../components/ui/StatusTag';
import { useChargeItem, useSaveChargeItem, type ChargeItemInput } from './api';

export function ChargeItemFormDrawer({ id, open, onClose }: { id: number | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const statusOptions = useStatusOptions();
  const drawer = useRecordDrawer<ChargeItemInput, ChargeItemInput>({ open, id, record: useChargeItem(open ? id : null), defaults: { status: 1, number: 1, unit: '例' }, save: useSaveChargeItem(id), onClose });
  const required = (field: string) => [{ required: true, message: t('validation.required', { field }) }];

  return (
    <FormDrawer title={t(id === null ? 'chargeItem.create' : 'chargeItem.edit')} {...drawer} testId="charge-item-drawer">
      <Form.Item name="name" label={t('chargeItem.table.name')} rules={required(t('chargeItem.table.name'))}>
        <Input autoFocus maxLength={100} />
      </Form.Item>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item name="price" label={t('chargeItem.table.price')} rules={required(t('chargeItem.table.price'))}>
            <InputNumber min={0} max={1_000_000} precision={2} prefix="¥" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="unit" label={t('chargeItem.table.unit')}>
            <Input maxLength={20} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="number" label={t('chargeItem.table.number')} extra={t('chargeItem.numberHint')}>
            <InputNumber min={1} max={9999} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="item_code" label={t('chargeItem.table.itemCode')}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="inner_code" label={t('chargeItem.table.innerCode')}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="input_code" label={t('chargeItem.table.inputCode')} extra={t('chargeItem.inputCodeHint')}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="status" label={t('chargeItem.table.status')}>
        <Radio.Group options={statusOptions} />
      </Form.Item>
    </FormDrawer>
  );
}
