import { useEffect } from 'react';
import { App, Button, Card, Col, ColorPicker, Form, Input, InputNumber, Radio, Row, Space, Switch, Typography, Upload, Watermark } from 'antd';
import { DeleteOutlined, PictureOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { ApiBody } from '../../lib/api/types';
import { appKeys, useConfig } from '../../lib/appData';
import { useApiError } from '../../components/ui/useApiError';

type SystemInput = ApiBody<'/api/config/setting', 'put'>;

const colour = (v: unknown) => (typeof v === 'string' ? v : (v as { toRgbString?: () => string })?.toRgbString?.() ?? '');

/** /setting/other-config: the system configuration of spec 2 §3 that the administrator keeps. */
export default function SystemSettingsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<SystemInput>();
  const config = useConfig();
  const qc = useQueryClient();
  const showError = useApiError();
  const save = useMutation({
    mutationFn: async (body: SystemInput) => unwrap(await api.PUT('/api/config/setting', { body })),
    onSuccess: (cfg) => qc.setQueryData(appKeys.config, cfg),
  });
  const wm = Form.useWatch('watermark', form);

  const reset = () => {
    if (config.data) form.setFieldsValue(config.data);
  };
  useEffect(() => {
    if (config.data) form.setFieldsValue(config.data);
  }, [config.data, form]);

  const finish = (v: SystemInput) =>
    save.mutate({ ...v, watermark: { ...v.watermark, fontColor: colour(v.watermark.fontColor) } }, {
      onSuccess: () => void message.success(t('common.saved')),
      onError: (e) => showError(e, form),
    });
  const flag = { valuePropName: 'checked' };

  return (
    <div style={{ padding: 20 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>{t('settings.title')}</Typography.Title>
      <Typography.Text type="secondary">{t('settings.subtitle')}</Typography.Text>
      <Form form={form} layout="vertical" onFinish={finish} name="system-settings" style={{ marginTop: 16 }} disabled={config.isLoading}>
        <Row gutter={20}>
          <Col xs={24} xl={12}>
            <Card title={t('settings.appearance')} style={{ marginBottom: 20 }}>
              <Form.Item name="page_title" label={t('settings.pageTitle')} extra={t('settings.pageTitleHint')}>
                <Input maxLength={60} showCount placeholder={t('app.title')} />
              </Form.Item>
              <Row gutter={16}>
                <Col span={12}>
                  <Form.Item name="title" label={t('settings.shortTitle')} extra={t('settings.shortTitleHint')}>
                    <Input maxLength={30} />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item name="page_icon" label={t('settings.pageIcon')} extra={t('settings.pageIconHint')}>
                    <Input placeholder="/favicon.svg" />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item name="login_logo" label={t('settings.loginLogo')} extra={t('settings.loginLogoHint')}>
                <LogoPicker />
              </Form.Item>
              <Form.Item name="copyright" label={t('settings.copyright')}>
                <Input maxLength={100} />
              </Form.Item>
              <Form.Item name="language" label={t('settings.language')} extra={t('settings.languageHint')}>
                <Radio.Group optionType="button" options={[{ value: 'zh-CN', label: '简体中文' }, { value: 'en-US', label: 'English' }]} />
              </Form.Item>
            </Card>
            <Card title={t('settings.rules')}>
              <Form.Item name="captcha_enable" label={t('settings.captcha')} extra={t('settings.captchaHint')} {...flag}>
                <Switch />
              </Form.Item>
              <Form.Item name="need_upload_slide" label={t('settings.needSlide')} extra={t('settings.needSlideHint')} {...flag}>
                <Switch />
              </Form.Item>
              <Form.Item name="delay_report" label={t('settings.delayReport')} extra={t('settings.delayReportHint')} {...flag}>
                <Switch />
              </Form.Item>
              <Form.Item name="timeout_reason" label={t('settings.timeoutReason')} extra={t('settings.timeoutReasonHint')} {...flag}>
                <Switch />
              </Form.Item>
              <Form.Item name="big_screen" label={t('settings.bigScreen')} extra={t('settings.bigScreenHint')} {...flag}>
                <Switch data-testid="settings-big-screen" />
              </Form.Item>
              <Form.Item name="show_meeting" label={t('settings.showMeeting')} extra={t('settings.showMeetingHint')} {...flag}>
                <Switch />
              </Form.Item>
              <Form.Item name="rollback_need_check" label={t('settings.rollbackNeedCheck')} extra={t('settings.rollbackNeedCheckHint')} {...flag}>
                <Switch data-testid="settings-rollback-need-check" />
              </Form.Item>
              <Form.Item name="supplement_report" label={t('settings.supplementReport')} extra={t('settings.supplementReportHint')} {...flag}>
                <Switch data-testid="settings-supplement-report" />
              </Form.Item>
              <Form.Item name="allocate_to_third" label={t('settings.allocateToThird')} extra={t('settings.allocateToThirdHint')} {...flag}>
                <Switch data-testid="settings-allocate-to-third" />
              </Form.Item>
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card title={t('settings.watermark')}>
              <Form.Item name={['watermark', 'flag']} label={t('settings.watermarkOn')} extra={t('settings.watermarkHint')} {...flag}>
                <Switch />
              </Form.Item>
              <Form.Item name={['watermark', 'text']} label={t('settings.watermarkText')}>
                <Input maxLength={50} />
              </Form.Item>
              <Row gutter={16}>
                <Col span={12}>
                  <Form.Item name={['watermark', 'fontSize']} label={t('settings.watermarkSize')}>
                    <InputNumber min={8} max={72} precision={0} style={{ width: '100%' }} addonAfter="px" />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item name={['watermark', 'fontColor']} label={t('settings.watermarkColor')} getValueFromEvent={colour}>
                    <ColorPicker showText format="rgb" />
                  </Form.Item>
                </Col>
              </Row>
              <Typography.Text type="secondary">{t('settings.preview')}</Typography.Text>
              <Watermark
                content={wm?.flag ? wm.text || ' ' : ''}
                font={{ fontSize: wm?.fontSize || 16, color: colour(wm?.fontColor) || 'rgba(0,0,0,0.12)' }}
                style={{ marginTop: 8 }}
              >
                <div data-testid="watermark-preview" style={{ height: 180, border: '1px dashed #d9d9d9', borderRadius: 8, background: '#fafafa' }} />
              </Watermark>
            </Card>
          </Col>
        </Row>
        <Space style={{ marginTop: 20 }}>
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} data-testid="settings-save">
            {t('common.save')}
          </Button>
          <Button icon={<UndoOutlined />} onClick={reset}>{t('settings.undo')}</Button>
        </Space>
      </Form>
    </div>
  );
}

const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'];
const MAX_LOGO_BYTES = 64 * 1024;

/** The sign-in page's logo: a small image kept as a data: URL (the server checks type and size again). */
function LogoPicker({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const pick = (file: File) => {
    if (!LOGO_TYPES.includes(file.type) || file.size > MAX_LOGO_BYTES) {
      void message.error(t('settings.loginLogoBad'));
      return false;
    }
    const reader = new FileReader();
    reader.onload = () => onChange?.(String(reader.result));
    reader.readAsDataURL(file);
    return false;
  };
  return (
    <Space align="center" wrap>
      <div style={{ width: 160, height: 56, border: '1px dashed #d9d9d9', borderRadius: 6, display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#fafafa' }}>
        {value ? (
          <img src={value} alt={t('settings.loginLogo')} data-testid="login-logo-preview" style={{ maxWidth: 150, maxHeight: 48 }} />
        ) : (
          <Typography.Text type="secondary">{t('settings.loginLogoNone')}</Typography.Text>
        )}
      </div>
      <Upload accept={LOGO_TYPES.join(',')} showUploadList={false} beforeUpload={pick}>
        <Button icon={<PictureOutlined />}>{t('settings.loginLogoChoose')}</Button>
      </Upload>
      {value && (
        <Button icon={<DeleteOutlined />} onClick={() => onChange?.('')}>
          {t('settings.loginLogoRemove')}
        </Button>
      )}
    </Space>
  );
}
