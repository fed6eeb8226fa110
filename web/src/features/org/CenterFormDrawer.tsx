import { useEffect } from 'react';
import { App, Col, Form, Input, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CenterInput } from '../../lib/api/types';
import { FormDrawer } from '../../components/ui/FormDrawer';
import { useApiError } from '../../components/ui/useApiError';
import { useCenterOptions } from '../../entities/org/options';
import { useCenter, useSaveCenter } from './api';

export function CenterFormDrawer({ id, open, parentId, onClose }: { id: number | null; open: boolean; parentId?: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<CenterInput>();
  const center = useCenter(open ? id : null);
  const save = useSaveCenter(id);
  const showError = useApiError();
  const centers = useCenterOptions();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (id === null) form.setFieldsValue({ status: 1, parent_id: parentId ?? undefined });
    else if (center.data) form.setFieldsValue({ ...center.data, parent_id: center.data.parent_id ?? undefined });
  }, [open, id, parentId, center.data, form]);

  const finish = (v: CenterInput) =>
    save.mutate({ ...v, parent_id: v.parent_id ?? undefined }, {
      onSuccess: () => {
        void message.success(t('common.saved'));
        onClose();
      },
      onError: (e) => showError(e, form),
    });
  const parents = (centers.data ?? []).filter((c) => c.value !== id);

  return (
    <FormDrawer title={t(id === null ? 'center.create' : 'center.edit')} open={open} form={form} loading={id !== null && center.isLoading} saving={save.isPending} onClose={onClose} onFinish={finish} testId="center-drawer">
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
      <Form.Item name="status" label={t('center.table.status')}>
        <Radio.Group options={[{ value: 1, label: t('common.status.enabled') }, { value: 0, label: t('common.status.disabled') }]} />
      </Form.Item>
      <Form.Item name="remark" label={t('center.table.remark')}>
        <Input.TextArea rows={3} />
      </Form.Item>
    </FormDrawer>
  );
}
