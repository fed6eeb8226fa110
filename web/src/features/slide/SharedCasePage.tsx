// /shareCase?c=… — a case shared by link, for visitors without an account:
// the code of a secret share first, then the case read-only (slides in the
// viewer with zoom, measurement, split view and, as the share includes them,
// the case's annotations; the report and attachments as the share includes
// them), under the watermark "shared by … on …" (also drawn into every image).
import { useEffect, useState } from 'react';
import { useSearchParams } from '../../lib/searchParams';
import { Button, Card, Descriptions, Form, Input, Layout, Result, Space, Spin, Tag, Typography } from 'antd';
import { FilePdfOutlined, LockOutlined, PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api/errors';
import { LanguageSwitch } from '../../components/ui/LanguageSwitch';
import { formatDateTime } from '../../lib/format';
import { openShare, type SharedCase } from './sharedCaseApi';
import { SharedSlides } from './share/SharedSlides';
import { Watermark } from './Watermark';

type Stage = { kind: 'loading' } | { kind: 'code'; error?: string } | { kind: 'gone'; message: string } | { kind: 'open'; view: SharedCase };

export default function SharedCasePage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get('c') ?? '';
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);

  const open = async (code?: string) => {
    setBusy(true);
    try {
      setStage({ kind: 'open', view: await openShare(token, code) });
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError(0, String(e));
      if (err.status === 403) setStage({ kind: 'code', error: code ? err.message : undefined });
      else if (err.status === 429) setStage({ kind: 'code', error: err.message });
      else setStage({ kind: 'gone', message: err.message });
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    void open();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  return (
    <Layout style={{ minHeight: '100vh', background: '#f3f6fa' }}>
      <Layout.Header style={{ background: '#fff', display: 'flex', alignItems: 'center', justifyContent: 'space-between', paddingInline: 20, borderBottom: '1px solid #e5e7eb' }}>
        <Typography.Title level={1} style={{ margin: 0, fontSize: 18 }}>{t('share.page.title')}</Typography.Title>
        <LanguageSwitch />
      </Layout.Header>
      <Layout.Content style={{ padding: 16 }}>
        {stage.kind === 'loading' && <Spin style={{ display: 'block', margin: '120px auto' }} />}
        {stage.kind === 'gone' && (
          <div data-testid="share-gone">
            <Result status="warning" title={stage.message} />
          </div>
        )}
        {stage.kind === 'code' && <CodeForm busy={busy} error={stage.error} onSubmit={(c) => void open(c)} />}
        {stage.kind === 'open' && <SharedCaseView view={stage.view} />}
      </Layout.Content>
    </Layout>
  );
}

function CodeForm({ busy, error, onSubmit }: { busy: boolean; error?: string; onSubmit: (code: string) => void }) {
  const { t } = useTranslation();
  return (
    <Card style={{ maxWidth: 420, margin: '80px auto' }} data-testid="share-code-form">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
          <LockOutlined /> {t('share.page.codeTitle')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('share.page.codeHint')}</Typography.Text>
        <Form layout="vertical" onFinish={(v: { code: string }) => onSubmit(v.code.trim().toUpperCase())}>
          <Form.Item name="code" label={t('share.dialog.code')} rules={[{ required: true, whitespace: true, message: t('share.page.codeRequired') }]}
            validateStatus={error ? 'error' : undefined} help={error}>
            <Input autoFocus maxLength={32} autoComplete="off" data-testid="share-code-input" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="share-code-submit">{t('share.page.open')}</Button>
        </Form>
      </Space>
    </Card>
  );
}

function SharedCaseView({ view }: { view: SharedCase }) {
  const { t } = useTranslation();
  const attachments = view.attachments ?? [];
  const age = view.patient.age ? `${view.patient.age}${t(`share.ageUnit.${view.patient.age_unit || 'year'}`)}` : '—';
  return (
    <Watermark text={view.watermark}>
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 340px', gap: 16 }} data-testid="shared-case">
        <Card size="small" styles={{ body: { padding: 0, height: 'calc(100vh - 150px)', minHeight: 460 } }}>
          <SharedSlides slides={view.slides ?? []} />
        </Card>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Card size="small" title={t('share.page.case')}>
            <Descriptions size="small" column={1}>
              <Descriptions.Item label={t('share.page.number')}><span data-testid="shared-number">{view.number}</span></Descriptions.Item>
              {!view.deidentified && <Descriptions.Item label={t('share.page.patient')}>{view.patient.name || '—'}</Descriptions.Item>}
              <Descriptions.Item label={t('share.page.gender')}>{view.patient.gender ? t(`share.gender.${view.patient.gender}`) : '—'}</Descriptions.Item>
              <Descriptions.Item label={t('share.page.age')}>{age}</Descriptions.Item>
              <Descriptions.Item label={t('share.page.center')}>{view.center || '—'}</Descriptions.Item>
              <Descriptions.Item label={t('share.page.specimens')}>{(view.specimens ?? []).map((s) => s.name).join('、') || '—'}</Descriptions.Item>
              <Descriptions.Item label={t('share.page.sharedBy')}>{view.shared_by}</Descriptions.Item>
              <Descriptions.Item label={t('share.page.expires')}>{view.expires_at ? formatDateTime(view.expires_at) : t('share.permanent')}</Descriptions.Item>
            </Descriptions>
            {view.deidentified && <Tag color="blue">{t('share.page.deidentified')}</Tag>}
          </Card>
          {view.clinical && (
            <Card size="small" title={t('share.part.clinical')}>
              <Descriptions size="small" column={1}>
                <Descriptions.Item label={t('share.page.clinicalDiagnosis')}>{view.clinical.clinical_diagnosis || '—'}</Descriptions.Item>
                <Descriptions.Item label={t('share.page.history')}>{view.clinical.medical_history || '—'}</Descriptions.Item>
                <Descriptions.Item label={t('share.page.purpose')}>{view.clinical.consult_purpose || '—'}</Descriptions.Item>
              </Descriptions>
            </Card>
          )}
          {(view.report_url || attachments.length > 0) && (
            <Card size="small" title={t('share.page.files')}>
              <Space direction="vertical">
                {view.report_url && (
                  <a href={view.report_url} target="_blank" rel="noreferrer" data-testid="shared-report"><FilePdfOutlined /> {t('share.part.report')}</a>
                )}
                {attachments.map((a) => (
                  <a key={a.id} href={a.url} data-testid="shared-attachment"><PaperClipOutlined /> {a.name}</a>
                ))}
              </Space>
            </Card>
          )}
        </Space>
      </div>
    </Watermark>
  );
}
