import { useEffect, useState } from 'react';
import { Button, Col, Form, Input, Row, Select, Space } from 'antd';
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { constraintsToRows, rowsToConstraints, type ConditionRow, type ConstraintGroup } from '../../../lib/list/constraints';
import type { ParamValue } from '../../../lib/list/query';
import { formToParams, paramsToForm } from '../../../lib/list/searchForm';
import { ConditionBuilder } from './ConditionBuilder';
import { DateRangeField } from './DateRangeField';
import type { SearchField, SelectOption } from './types';

interface Props {
  fields: SearchField[];
  filterColumns: SelectOption[];
  params: Record<string, ParamValue>;
  constraints: ConstraintGroup[];
  onSubmit: (params: Record<string, ParamValue>, constraints: ConstraintGroup[]) => void;
}

/** The declared search fields plus optional custom conditions. */
export function SearchForm({ fields, filterColumns, params, constraints, onSubmit }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [advanced, setAdvanced] = useState(constraints.length > 0);
  const fieldsKey = fields.map((f) => `${f.name}:${f.type}`).join();
  // Re-sync only when the URL state (or the declared fields) change, not on every render.
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue({ ...paramsToForm(fields, params), conditions: constraintsToRows(constraints) });
  }, [form, fieldsKey, params, constraints]); // eslint-disable-line react-hooks/exhaustive-deps

  const finish = (values: Record<string, unknown>) =>
    onSubmit(formToParams(fields, values), rowsToConstraints((values.conditions as ConditionRow[] | undefined) ?? []));
  const reset = () => {
    form.resetFields();
    onSubmit({}, []);
  };

  return (
    <Form form={form} name="search" layout="horizontal" onFinish={finish} data-testid="search-form" style={{ marginBottom: 4 }}>
      <Row gutter={16}>
        {fields.map((f) => (
          <Col key={f.name} xs={24} md={12} xl={8} xxl={6}>
            <Form.Item name={f.name} label={f.label} style={{ marginBottom: 12 }}>
              {f.type === 'text' ? (
                <Input allowClear placeholder={t('list.inputPlaceholder')} />
              ) : f.type === 'select' ? (
                <Select allowClear mode={f.multiple ? 'multiple' : undefined} options={f.options} placeholder={t('list.selectPlaceholder')} optionFilterProp="label" showSearch />
              ) : (
                <DateRangeField />
              )}
            </Form.Item>
          </Col>
        ))}
        <Col flex="auto" style={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'flex-end', paddingBottom: 12 }}>
          <Space>
            <Button onClick={reset}>{t('list.reset')}</Button>
            <Button type="primary" htmlType="submit" data-testid="search-submit">
              {t('list.query')}
            </Button>
            {filterColumns.length > 0 && (
              <Button type="link" onClick={() => setAdvanced((a) => !a)} icon={advanced ? <UpOutlined /> : <DownOutlined />} iconPosition="end">
                {t('list.customConditions')}
              </Button>
            )}
          </Space>
        </Col>
      </Row>
      {advanced && <ConditionBuilder columns={filterColumns} />}
    </Form>
  );
}
