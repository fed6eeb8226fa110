import { useEffect } from 'react';
import { App, Button, Card, Col, Form, Input, Row, Select, Space, Switch, Tag, Typography } from 'antd';
import { RollbackOutlined, SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../components/ui/useApiError';
import { DIAGNOSIS_LISTS, DIAGNOSIS_SWITCHES, DIAGNOSIS_TEXTS, useDiagnosisConfig, useSaveDiagnosisConfig, type DiagnosisConfig, type DiagnosisKey } from './api';

type Values = { settings: Partial<Record<DiagnosisKey, string | string[] | boolean>> };

/** The form values of the stored settings (lists never null). */
const toForm = (c: DiagnosisConfig): Values => ({
  settings: Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v ?? []])) as Values['settings'],
});

/**
 * /setting/diagnosisConfig: the reason lists the diagnosis dialogs offer and the
 * defaults they fill in (spec 2 §7 settings keys). The administrator keeps the
 * global copy; a center administrator their center's, each key falling back to
 * the global value until they change it.
 */
export default function DiagnosisConfigPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [form] = Form.useForm<Values>();
  const config = useDiagnosisConfig();
  const save = useSaveDiagnosisConfig();
  const data = config.data;
  const center = data?.scope === 'center';

  useEffect(() => {
    if (data) form.setFieldsValue(toForm(data.settings));
  }, [data, form]);

  const send = (settings: Partial<Record<DiagnosisKey, unknown>>) =>
    save.mutate(settings, { onSuccess: () => void message.success(t('common.saved')), onError: (e) => showError(e, form) });

  const finish = (v: Values) => {
    if (!data) return;
    const changed: Partial<Record<DiagnosisKey, unknown>> = {};
    for (const k of Object.keys(v.settings) as DiagnosisKey[]) {
      if (JSON.stringify(v.settings[k] ?? null) !== JSON.stringify((data.settings as DiagnosisConfig)[k] ?? null)) changed[k] = v.settings[k];
    }
    if (Object.keys(changed).length === 0) {
      void message.info(t('diagnosisConfig.unchanged'));
      return;
    }
    send(changed);
  };

  const label = (k: DiagnosisKey) => (
    <Space size={6}>
      {t(`diagnosisConfig.key.${k}`)}
      {center &&
        ((data?.inherited ?? []).includes(k) ? (
          <Tag>{t('diagnosisConfig.inherited')}</Tag>
        ) : (
          <>
            <Tag color="blue">{t('diagnosisConfig.own')}</Tag>
            <Button type="link" size="small" icon={<RollbackOutlined />} onClick={() => send({ [k]: null })} data-testid={`diagnosis-config-reset-${k}`}>
              {t('diagnosisConfig.useGlobal')}
            </Button>
          </>
        ))}
    </Space>
  );
  const hint = (k: DiagnosisKey) => t(`diagnosisConfig.hint.${k}`);

  return (
    <div style={{ padding: 20 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>{t('diagnosisConfig.title')}</Typography.Title>
      <Typography.Text type="secondary">{t(center ? 'diagnosisConfig.subtitleCenter' : 'diagnosisConfig.subtitle')}</Typography.Text>
      <Form form={form} layout="vertical" onFinish={finish} name="diagnosis-config" style={{ marginTop: 16 }} disabled={config.isLoading}>
        <Row gutter={20}>
          <Col xs={24} xl={14}>
            <Card title={`${t('diagnosisConfig.lists')} · ${t('diagnosisConfig.listPlaceholder')}`} style={{ marginBottom: 20 }}>
              {DIAGNOSIS_LISTS.map((k) => (
                <Form.Item key={k} name={['settings', k]} label={label(k)} extra={hint(k)}>
                  <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={['\n']} maxCount={50} aria-label={t(`diagnosisConfig.key.${k}`)} data-testid={`diagnosis-config-${k}`} />
                </Form.Item>
              ))}
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <Card title={t('diagnosisConfig.defaults')}>
              {DIAGNOSIS_TEXTS.map((k) => (
                <Form.Item key={k} name={['settings', k]} label={label(k)} extra={hint(k)}>
                  <Input maxLength={k === 'cell_fixed' || k === 'routine_fixed' ? 50 : 200} aria-label={t(`diagnosisConfig.key.${k}`)} data-testid={`diagnosis-config-${k}`} />
                </Form.Item>
              ))}
              {DIAGNOSIS_SWITCHES.map((k) => (
                <Form.Item key={k} name={['settings', k]} label={label(k)} extra={hint(k)} valuePropName="checked">
                  <Switch aria-label={t(`diagnosisConfig.key.${k}`)} />
                </Form.Item>
              ))}
            </Card>
          </Col>
        </Row>
        <Space style={{ marginTop: 20 }}>
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} data-testid="diagnosis-config-save">
            {t('common.save')}
          </Button>
          <Button onClick={() => data && form.setFieldsValue(toForm(data.settings))}>{t('diagnosisConfig.revert')}</Button>
        </Space>
      </Form>
    </div>
  );
}
