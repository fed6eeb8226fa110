import { Button, Flex, Form, Input, Select } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { OPERATORS } from '../../../lib/list/constraints';
import type { SelectOption } from './types';

/** Rows of condition / column / operator / value inside the search form (Form.List "conditions"). */
export function ConditionBuilder({ columns }: { columns: SelectOption[] }) {
  const { t } = useTranslation();
  const conditions = (['and', 'or', 'except'] as const).map((c) => ({ value: c, label: t(`list.condition.${c}`) }));
  const operators = OPERATORS.map((o) => ({ value: o, label: t(`list.operator.${o}`) }));
  return (
    <Form.List name="conditions">
      {(fields, { add, remove }) => (
        <Flex vertical gap={8} data-testid="condition-builder">
          {fields.map((f) => (
            <Flex key={f.key} gap={8} align="center">
              <Form.Item name={[f.name, 'condition']} noStyle initialValue="and">
                <Select options={conditions} style={{ width: 110 }} aria-label={t('list.conditionLabel')} />
              </Form.Item>
              <Form.Item name={[f.name, 'column']} noStyle>
                <Select options={columns} style={{ width: 160 }} placeholder={t('list.column')} aria-label={t('list.column')} />
              </Form.Item>
              <Form.Item name={[f.name, 'operator']} noStyle initialValue="=">
                <Select options={operators} style={{ width: 140 }} aria-label={t('list.operatorLabel')} />
              </Form.Item>
              <Form.Item name={[f.name, 'value']} noStyle>
                <Input style={{ width: 220 }} placeholder={t('list.valueHint')} aria-label={t('list.value')} />
              </Form.Item>
              <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('common.delete')} />
            </Flex>
          ))}
          <div>
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ condition: 'and', operator: '=' })}>
              {t('list.addCondition')}
            </Button>
          </div>
        </Flex>
      )}
    </Form.List>
  );
}
