// The report template form (add and edit): name and use, title and header
// elements, sections; the outline beside it follows every change.
import { useRef } from 'react';
import { App, Button, Card, Checkbox, Col, Flex, Form, Input, Row, Space, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api/errors';
import { useLayoutOptions, useSaveReportTemplate, type ReportTemplateInput } from './api';
import { cleanLayout, fieldPath } from './layout';
import { Outline } from './Outline';
import { SectionRows } from './SectionRows';

interface Props {
  id: number | null;
  initial: ReportTemplateInput;
}

export function TemplateForm({ id, initial }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<ReportTemplateInput>();
  const options = useLayoutOptions();
  const save = useSaveReportTemplate(id);
  const layout = Form.useWatch('layout', form);
  const kind = initial.kind ?? 'routine';
  // Server errors stay on a field until its value changes.
  const serverErrors = useRef<{ name: (string | number)[]; value: unknown }[]>([]);
  const clearChanged = () => {
    const changed = serverErrors.current.filter((f) => form.getFieldValue(f.name as never) !== f.value);
    if (!changed.length) return;
    serverErrors.current = serverErrors.current.filter((f) => !changed.includes(f));
    form.setFields(changed.map((f) => ({ name: f.name as never, errors: [] })));
  };

  const submit = (v: ReportTemplateInput) => {
    const body = { ...v, kind, layout: cleanLayout({ ...initial.layout, ...v.layout }, options.data?.headless ?? []) };
    save.mutate(body, {
      onSuccess: (saved) => {
        void message.success(t('common.saved'));
        navigate(`/setting/report/view/${saved.id}`);
      },
      onError: (e) => {
        if (e instanceof ApiError) {
          const fields = Object.entries(e.fieldErrors).map(([name, errors]) => ({ name: fieldPath(name), errors }));
          serverErrors.current = fields.map((f) => ({ name: f.name, value: form.getFieldValue(f.name as never) }));
          if (fields.length) form.setFields(fields as Parameters<typeof form.setFields>[0]);
          const first = Object.values(e.fieldErrors)[0]?.[0];
          void message.error(first ? `${e.message}: ${first}` : e.message);
        } else void message.error(e instanceof Error ? e.message : String(e));
      },
    });
  };

  if (!options.data) return null;
  return (
    <Form<ReportTemplateInput> form={form} layout="vertical" initialValues={initial} onFinish={submit} onValuesChange={clearChanged} data-testid="report-template-form" requiredMark={false}>
      <Row gutter={20}>
        <Col xs={24} xl={16}>
          <Card size="small" title={t('reportTemplate.form.basic')} style={{ marginBottom: 16 }}
            extra={<Tag color="blue" bordered={false}>{t(`reportTemplate.kind.${kind}`)}</Tag>}>
            <Flex gap={16} wrap align="end">
              <Form.Item name="name" label={t('reportTemplate.form.name')} style={{ flex: 1, minWidth: 260, marginBottom: 8 }}
                rules={[{ required: true, whitespace: true, message: t('reportTemplate.form.nameRequired') }]}>
                <Input maxLength={60} />
              </Form.Item>
              <Form.Item name="active" valuePropName="checked" label={t('reportTemplate.form.active')} tooltip={t('reportTemplate.form.activeHint')} style={{ marginBottom: 8 }}>
                <Switch />
              </Form.Item>
            </Flex>
          </Card>
          <Card size="small" title={t('reportTemplate.form.header')} style={{ marginBottom: 16 }}>
            <Flex gap={16} wrap>
              <Form.Item name={['layout', 'title_zh']} label={t('reportTemplate.form.titleZh')} style={{ flex: 1, minWidth: 240, marginBottom: 8 }}>
                <Input maxLength={80} />
              </Form.Item>
              <Form.Item name={['layout', 'title_en']} label={t('reportTemplate.form.titleEn')} style={{ flex: 1, minWidth: 240, marginBottom: 8 }}>
                <Input maxLength={80} />
              </Form.Item>
            </Flex>
            <Space size={20} wrap>
              {(['center', 'hospital', 'report_no'] as const).map((k) => (
                <Form.Item key={k} name={['layout', 'header', k]} valuePropName="checked" noStyle>
                  <Checkbox>{t(`reportTemplate.header.${k}`)}</Checkbox>
                </Form.Item>
              ))}
              <Form.Item name={['layout', 'header', 'verify']} valuePropName="checked" noStyle>
                <Checkbox disabled>{t('reportTemplate.header.verify')}</Checkbox>
              </Form.Item>
              <Typography.Text type="secondary">{t('reportTemplate.form.verifyHint')}</Typography.Text>
            </Space>
          </Card>
          <Card size="small" title={t('reportTemplate.form.sections')} extra={<Typography.Text type="secondary">{t('reportTemplate.form.sectionsHint')}</Typography.Text>}>
            <SectionRows options={options.data} />
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <div style={{ position: 'sticky', top: 16 }}>
            <Outline layout={layout} />
          </div>
        </Col>
      </Row>
      <Flex justify="end" gap={8} style={{ marginTop: 16 }}>
        <Button onClick={() => navigate('/setting/report')}>{t('common.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="report-template-save">{t('common.save')}</Button>
      </Flex>
    </Form>
  );
}
