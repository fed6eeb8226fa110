import { Alert, Col, Form, Input, InputNumber, Radio, Row, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDrawer, useRecordDrawer } from '../../components/ui/FormDrawer';
import { useStatusOptions } from '../../components/ui/StatusTag';
import { REPORT_KINDS, useLibrary, useLibraryTree, useSaveLibrary, type LibraryInput } from './api';
import { exampleNumber } from './numberRule';

const PART = /^[A-Za-z0-9_-]*$/;

export function LibraryFormDrawer({ id, open, parentId, onClose }: { id: number | null; open: boolean; parentId?: number; onClose: () => void }) {
  const { t } = useTranslation();
  const statusOptions = useStatusOptions();
  const drawer = useRecordDrawer({
    open,
    id,
    record: useLibrary(open ? id : null),
    defaults: { status: 1, report_kind: 'routine', number_name: '病理号', middle_digits: 4, symbol: '-', digit_length: 5, delay_hours: 3, parent_id: parentId } as Partial<LibraryInput>,
    fromRecord: (l) => ({ ...l, parent_id: l.parent_id ?? undefined }),
    save: useSaveLibrary(id),
    onClose,
  });
  const libraries = useLibraryTree();
  const rule = Form.useWatch([], drawer.form) ?? {};
  const parents = (libraries.data ?? []).filter((l) => l.id !== id).map((l) => ({ value: l.id, label: l.name }));
  const part = { pattern: PART, message: t('library.partChars') };

  return (
    <FormDrawer title={t(id === null ? 'library.create' : 'library.edit')} {...drawer} testId="library-drawer" width={640}>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="name" label={t('library.table.name')} rules={[{ required: true, message: t('validation.required', { field: t('library.table.name') }) }]}>
            <Input autoFocus maxLength={100} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="pis_code" label={t('library.table.pisCode')} extra={t('library.pisCodeHint')}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="parent_id" label={t('library.parent')} extra={t('library.parentHint')}>
            <Select allowClear options={parents} optionFilterProp="label" showSearch />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="report_kind" label={t('library.table.reportKind')}>
            <Radio.Group optionType="button" options={REPORT_KINDS.map((k) => ({ value: k, label: t(`library.kind.${k}`) }))} />
          </Form.Item>
        </Col>
      </Row>
      <Typography.Title level={5}>{t('library.numberRule')}</Typography.Title>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item name="number_name" label={t('library.table.numberName')}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="prefix" label={t('library.prefix')} rules={[part]}>
            <Input maxLength={10} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="middle_digits" label={t('library.middleDigits')} extra={t('library.middleHint')}>
            <InputNumber min={0} max={10} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="symbol" label={t('library.symbol')} rules={[part]}>
            <Input maxLength={10} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="digit_length" label={t('library.digitLength')} extra={t('library.digitHint')}>
            <InputNumber min={0} max={10} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="delay_hours" label={t('library.table.delayHours')} extra={t('library.delayHint')}>
            <InputNumber min={0} max={72} precision={0} style={{ width: '100%' }} addonAfter={t('library.hourUnit')} />
          </Form.Item>
        </Col>
      </Row>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={<span>{t('library.example')}: <Typography.Text code data-testid="library-example">{exampleNumber(rule)}</Typography.Text></span>} />
      <Form.Item name="status" label={t('library.table.status')}>
        <Radio.Group options={statusOptions} />
      </Form.Item>
    </FormDrawer>
  );
}
