import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { HospitalInput } from '../../lib/api/types';

type SiteInfo = NonNullable<HospitalInput['site_info']>;

const TEXT = ['hisname', 'hisip', 'hisport', 'his_code', 'organizationcode', 'uploader', 'caseinterface', 'uploadinterface', 'reportinterface', 'reportmode', 'interfacemode', 'upload_host', 'mq_host', 'monitor_dir'] as const;
const NUMBER = ['upload_port', 'mq_port'] as const;
const FLAGS = ['islocalhost', 'directexp', 'isshowunit', 'clsuse', 'ulsuse', 'rlsuse', 'is_test'] as const;
const PROTOCOL = ['network_protocol', 'upload_protocol'] as const;

/** Every site_info field with the spec's defaults; the server requires the whole object. */
export const SITE_INFO_DEFAULTS: SiteInfo = {
  ...(Object.fromEntries(TEXT.map((k) => [k, ''])) as Record<(typeof TEXT)[number], string>),
  ...(Object.fromEntries([...NUMBER, ...FLAGS].map((k) => [k, 0])) as Record<(typeof NUMBER)[number] | (typeof FLAGS)[number], number>),
  network_protocol: 'http',
  upload_protocol: 'http',
  upload_host: 'localhost',
  upload_port: 8001,
};

/** The form's site_info with cleared fields (null/undefined) put back to their defaults. */
export function completeSiteInfo(v: Partial<SiteInfo> | null | undefined): SiteInfo {
  const set = Object.entries(v ?? {}).filter(([, x]) => x !== null && x !== undefined);
  return { ...SITE_INFO_DEFAULTS, ...Object.fromEntries(set) };
}

/** The hospital's integration settings (site_info), shown in a collapsed section. */
export function SiteInfoFields() {
  const { t } = useTranslation();
  const label = (k: string) => t(`hospital.siteInfo.${k}`);
  return (
    <Row gutter={16}>
      {PROTOCOL.map((k) => (
        <Col span={12} key={k}>
          <Form.Item name={['site_info', k]} label={label(k)}>
            <Select options={['http', 'https'].map((v) => ({ value: v, label: v }))} />
          </Form.Item>
        </Col>
      ))}
      {TEXT.map((k) => (
        <Col span={12} key={k}>
          <Form.Item name={['site_info', k]} label={label(k)}>
            <Input />
          </Form.Item>
        </Col>
      ))}
      {NUMBER.map((k) => (
        <Col span={12} key={k}>
          <Form.Item name={['site_info', k]} label={label(k)}>
            <InputNumber style={{ width: '100%' }} min={0} />
          </Form.Item>
        </Col>
      ))}
      {FLAGS.map((k) => (
        <Col span={8} key={k}>
          <Form.Item name={['site_info', k]} label={label(k)} getValueProps={(v: number | undefined) => ({ checked: v === 1 })} normalize={(v: boolean) => (v ? 1 : 0)}>
            <Switch size="small" />
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}
