import { Col, Collapse, Form, Input, InputNumber, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { HospitalInput } from '../../lib/api/types';
import { FormDrawer, useRecordDrawer } from '../../components/ui/FormDrawer';
import { useStatusOptions } from '../../components/ui/StatusTag';
import { useCenterOptions } from '../../entities/org/options';
import { useHospital } from '../../entities/org/api';
import { useSaveHospital } from './api';
import { SITE_INFO_DEFAULTS, SiteInfoFields, completeSiteInfo } from './siteInfoFields';

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

export function HospitalFormDrawer({ id, open, onClose }: { id: number | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const statusOptions = useStatusOptions();
  const drawer = useRecordDrawer<HospitalInput, NonNullable<ReturnType<typeof useHospital>['data']>>({
    open,
    id,
    record: useHospital(open ? id : null),
    defaults: { status: 1, storage_mode: 0, expert_select: 1, center_ids: [], site_info: SITE_INFO_DEFAULTS },
    fromRecord: ({ centers: _c, created_at: _a, updated_at: _u, id: _i, default_expert_id, ...h }) => ({
      ...h,
      default_expert_id: default_expert_id ?? undefined,
      center_ids: h.center_ids ?? [],
      site_info: completeSiteInfo(h.site_info),
    }),
    save: useSaveHospital(id),
    toBody: (v) => ({ ...v, site_info: completeSiteInfo(v.site_info) }),
    onClose,
  });
  const centers = useCenterOptions();
  const req = (k: string) => [{ required: true, message: t('validation.required', { field: t(`hospital.table.${k}`) }) }];
  const opts = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ value: i, label: t(`${prefix}.${i}`) }));

  return (
    <FormDrawer title={t(id === null ? 'hospital.create' : 'hospital.edit')} {...drawer} width={680} testId="hospital-drawer">
      <Row gutter={16}>
        <Col span={14}>
          <Form.Item name="name" label={t('hospital.table.name')} rules={req('name')}>
            <Input autoFocus />
          </Form.Item>
        </Col>
        <Col span={10}>
          <Form.Item name="abbreviation" label={t('hospital.table.abbreviation')} rules={req('abbreviation')}>
            <Input />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="code" label={t('hospital.table.code')} rules={req('code')}>
            <Input />
          </Form.Item>
        </Col>
        <Col span={10}>
          <Form.Item name="public_ip" label={t('hospital.table.publicIp')} rules={[...req('publicIp'), { pattern: IPV4, message: t('validation.ip') }]}>
            <Input placeholder="203.0.113.10" />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="port" label={t('hospital.table.port')} rules={req('port')}>
            <InputNumber style={{ width: '100%' }} min={1} max={65535} precision={0} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="contact" label={t('hospital.table.contact')}>
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="phone" label={t('hospital.table.phone')}>
            <Input />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="address" label={t('hospital.table.address')}>
        <Input />
      </Form.Item>
      <Form.Item name="center_ids" label={t('hospital.table.centers')}>
        <Select mode="multiple" options={centers.data} loading={centers.isLoading} optionFilterProp="label" allowClear />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="storage_mode" label={t('hospital.table.storageMode')}>
            <Select options={opts('hospital.storageMode', 3)} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="expert_select" label={t('hospital.table.expertSelect')}>
            <Select options={opts('hospital.expertSelect', 3)} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="status" label={t('hospital.table.status')}>
        <Radio.Group options={statusOptions} />
      </Form.Item>
      <Collapse ghost items={[{ key: 'integration', label: t('hospital.integration'), children: <SiteInfoFields />, forceRender: true }]} />
    </FormDrawer>
  );
}
