import { useEffect } from 'react';
import { App, Button, Form, InputNumber, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { useApiError } from '../../components/ui/useApiError';
import { useQCTargets, useStoreTargets, type QCTarget } from './api';

type Values = Record<string, { qc_value: number; goal_value: number }>;

/** /setting/qcConfig: the QC indicator targets (qc value and goal value, 0–100, goal ≥ qc). */
export default function QCTargetPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const targets = useQCTargets();
  const store = useStoreTargets();
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (targets.data) form.setFieldsValue(Object.fromEntries(targets.data.map((x) => [x.rate_key, { qc_value: x.qc_value, goal_value: x.goal_value }])));
  }, [targets.data, form]);
  const save = async (v: Values) => {
    try {
      await store.mutateAsync({ items: Object.entries(v).map(([rate_key, x]) => ({ rate_key, qc_value: x.qc_value, goal_value: x.goal_value })) });
      message.success(t('common.saved'));
    } catch (e) {
      // items[i].goal_value → the row's field
      showError(e);
    }
  };
  const number = (key: string, field: 'qc_value' | 'goal_value', label: string) => (
    <Form.Item
      name={[key, field]}
      noStyle={false}
      style={{ margin: 0 }}
      dependencies={field === 'goal_value' ? [[key, 'qc_value']] : []}
      rules={[
        { required: true, message: t('qc.required') },
        ({ getFieldValue }) => ({
          validator: (_, value: number) =>
            field === 'goal_value' && value < getFieldValue([key, 'qc_value']) ? Promise.reject(new Error(t('qc.goalBelowQc'))) : Promise.resolve(),
        }),
      ]}
    >
      <InputNumber min={0} max={100} step={0.5} addonAfter="%" aria-label={label} data-testid={`qc-${key}-${field}`} />
    </Form.Item>
  );
  return (
    <PageContainer title={t('qc.title')} subtitle={t('qc.subtitle')}>
      <Form form={form} onFinish={save}>
        <Table<QCTarget>
          rowKey="rate_key"
          loading={targets.isLoading}
          dataSource={targets.data ?? []}
          pagination={false}
          columns={[
            { key: 'type', title: t('qc.type'), render: (_, x) => t(`qc.types.${x.type}`), width: 160 },
            { key: 'label', title: t('qc.indicator'), dataIndex: 'label' },
            { key: 'qc', title: t('qc.qcValue'), render: (_, x) => number(x.rate_key, 'qc_value', `${x.label} ${t('qc.qcValue')}`), width: 200 },
            { key: 'goal', title: t('qc.goalValue'), render: (_, x) => number(x.rate_key, 'goal_value', `${x.label} ${t('qc.goalValue')}`), width: 200 },
          ]}
        />
        <Button type="primary" htmlType="submit" loading={store.isPending} style={{ marginTop: 16 }} data-testid="qc-save">{t('common.save')}</Button>
      </Form>
    </PageContainer>
  );
}
