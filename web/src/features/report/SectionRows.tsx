// The editable section list of a report template: print order (move up and
// down), shown or hidden, headings in both languages, the patient table's fields.
import { Button, Checkbox, Flex, Form, Input, Select, Tag, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ReportTemplateOptions } from './api';

interface Props {
  options: ReportTemplateOptions;
}

export function SectionRows({ options }: Props) {
  const { t, i18n } = useTranslation();
  // Chinese section names are short; English ones need a wider column.
  const labelWidth = i18n.language === 'en-US' ? 196 : 124;
  const form = Form.useFormInstance();
  const fieldOptions = (options.patient_fields ?? []).map((f) => ({ value: f, label: t(`reportTemplate.field.${f}`) }));
  return (
    <Form.List name={['layout', 'sections']}>
      {(rows, { move }) => (
        <div role="list" aria-label={t('reportTemplate.form.sections')} style={{ border: '1px solid #e5e9f0', borderRadius: 8 }}>
          {rows.map((row, i) => {
            const key: string = form.getFieldValue(['layout', 'sections', row.name, 'key']);
            const required = (options.required ?? []).includes(key);
            const headless = (options.headless ?? []).includes(key);
            const label = t(`reportTemplate.section.${key}`);
            return (
              <div key={row.key} role="listitem" data-testid={`section-${key}`} aria-label={label}
                style={{ padding: '10px 14px', borderTop: i ? '1px solid #eef1f5' : undefined, background: i % 2 ? '#fbfcfd' : undefined }}>
                <Flex align="center" gap={12} wrap>
                  <Typography.Text type="secondary" style={{ width: 22, textAlign: 'right' }}>{i + 1}</Typography.Text>
                  <Flex vertical gap={0} style={{ width: labelWidth }}>
                    <Form.Item name={[row.name, 'show']} valuePropName="checked" noStyle>
                      <Checkbox disabled={required} aria-label={`${t('reportTemplate.form.show')} ${label}`}>
                        <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>{label}</Typography.Text>
                      </Checkbox>
                    </Form.Item>
                    {required && (
                      <Tooltip title={t('reportTemplate.form.requiredHint')}>
                        <Tag color="red" bordered={false} style={{ width: 'fit-content', marginTop: 4 }}>{t('reportTemplate.form.required')}</Tag>
                      </Tooltip>
                    )}
                  </Flex>
                  {headless ? (
                    <Typography.Text type="secondary" style={{ flex: 1, minWidth: 240 }}>{t('reportTemplate.form.noHeading')}</Typography.Text>
                  ) : (
                    <Flex gap={8} style={{ flex: 1, minWidth: 240 }}>
                      <Form.Item name={[row.name, 'heading_zh']} style={{ flex: 1, margin: 0 }}>
                        <Input maxLength={60} addonBefore="中" aria-label={`${label} ${t('reportTemplate.form.headingZh')}`} placeholder={t('reportTemplate.form.headingZh')} />
                      </Form.Item>
                      <Form.Item name={[row.name, 'heading_en']} style={{ flex: 1, margin: 0 }}>
                        <Input maxLength={60} addonBefore="EN" aria-label={`${label} ${t('reportTemplate.form.headingEn')}`} placeholder={t('reportTemplate.form.headingEn')} />
                      </Form.Item>
                    </Flex>
                  )}
                  <Flex gap={2}>
                    <Tooltip title={t('reportTemplate.form.moveUp')}>
                      <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={`${t('reportTemplate.form.moveUp')} ${label}`} />
                    </Tooltip>
                    <Tooltip title={t('reportTemplate.form.moveDown')}>
                      <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={i === rows.length - 1} onClick={() => move(i, i + 1)} aria-label={`${t('reportTemplate.form.moveDown')} ${label}`} />
                    </Tooltip>
                  </Flex>
                </Flex>
                {key === 'patient' && (
                  <Form.Item name={[row.name, 'fields']} label={t('reportTemplate.form.fields')} style={{ margin: '10px 0 0 34px' }}>
                    <Select mode="multiple" options={fieldOptions} allowClear={false} aria-label={t('reportTemplate.form.fields')} />
                  </Form.Item>
                )}
                <Form.Item name={[row.name, 'key']} hidden><Input /></Form.Item>
              </div>
            );
          })}
        </div>
      )}
    </Form.List>
  );
}
