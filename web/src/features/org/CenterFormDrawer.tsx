import { Col, Form, Input, InputNumber, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CenterInput } from '../../lib/api/types';
import { FormDrawer, useRecordDrawer } from '../../components/ui/FormDrawer';
import { useStatusOptions } from '../../components/ui/StatusTag';
import { useCenterOptions } from '../../entities/org/options';
import { useCenter, useSaveCenter } from './api';
import { thresholdProblem } from './thresholds';

export function CenterFormDrawer({ id, open, parentId, onClose }: { id: number | null; open: boolean; parentId?: number; onClose: () => void }) {
  const { t } = useTranslation();
  const statusOptions = useStatusOptions();
  const drawer = useRecordDrawer<CenterInput, NonNullable<ReturnType<typeof useCenter>['data']>>({
    open,
    id,
    record: useCenter(open ? id : null),
    defaults: { status: 1, parent_id: parentId ?? undefined, frozen_amber_min: 15, frozen_red_min: 20 },
    fromRecord: (c) => ({ ...c, parent_id: c.parent_id ?? undefined }),
    save: useSaveCenter(id),
    toBody: (v) => ({ ...v, parent_id: v.parent_id ?? undefined }),
    onClose,
  });
  const centers = useCenterOptions();
  const parents = (centers.data ?? []).filter((c) => c.value !== id);

  return (
    <FormDrawer title={t(id === null ? 'center.create' : 'center.edit')} {...drawer} testId="center-drawer">
      <Form.Item name="name" label={t('center.table.name')} rules={[{ required: true, message: t('validation.required', { field: t('center.table.name') }) }]}>
        <Input autoFocus />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="code" label={t('center.table.code')}>
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="parent_id" label={t('center.table.parent')} extra={t('center.parentHint')}>
            <Select allowClear options={parents} optionFilterProp="label" showSearch />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="contact" label={t('center.table.contact')}>
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="phone" label={t('center.table.phone')}>
            <Input />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="address" label={t('center.table.address')}>
        <Input />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            name="frozen_amber_min"
            label={t('center.frozenAmber')}
            extra={t('center.frozenHint')}
            rules={[{ validator: (_, v) => (thresholdProblem(v) ? Promise.reject(new Error(t('center.frozenMinutes'))) : Promise.resolve()) }]}
          >
            <InputNumber min={1} max={1440} precision={0} addonAfter={t('center.minutes')} style={{ width: '100%' }} data-testid="center-frozen-amber" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="frozen_red_min"
            label={t('center.frozenRed')}
            dependencies={['frozen_amber_min']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, v) => {
                  const p = thresholdProblem(v, getFieldValue('frozen_amber_min'), true);
                  return p ? Promise.reject(new Error(t(p === 'order' ? 'center.frozenOrder' : 'center.frozenMinutes'))) : Promise.resolve();
                },
              }),
            ]}
          >
            <InputNumber min={1} max={1440} precision={0} addonAfter={t('center.minutes')} style={{ width: '100%' }} data-testid="center-frozen-red" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="status" label={t('center.table.status')}>
        <Radio.Group options={statusOptions} />
      </Form.Item>
      <Form.Item name="remark" label={t('center.table.remark')}>
        <Input.TextArea rows={3} />
      </Form.Item>
    </FormDrawer>
  );
}
