// /case/register/:id — the site registers a case (new, or a draft or returned
// case to edit): state and saving in register/useRegisterForm, the sections in
// register/sections and register/SpecimensSection.
import { Alert, Button, Flex, Form, Space, Spin, Switch, Tooltip, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { AttachmentField, fullBodyCount, type AttachmentValue } from './AttachmentField';
import { SlidePicker } from '../../entities/case/SlidePicker';
import { useRegisterForm, type RegisterForm } from './register/useRegisterForm';
import { useFieldKit, Section } from './register/fields';
import { ClinicalSection, InspectionSection, PathologySection, PatientSection, TargetSection } from './register/sections';
import { SpecimensSection } from './register/SpecimensSection';

export default function RegisterPage() {
  const { t } = useTranslation();
  const r = useRegisterForm();
  const k = useFieldKit(r.quick, r.draftMode);
  const { id, form, quick, setQuick, detail, locked, summary, setSummary, clinician } = r;

  const title = clinician ? (id ? t('case.clinical.editTitle') : t('case.clinical.newTitle')) : id ? t('case.register.editTitle') : t('case.register.title');
  if (id && detail.isLoading) return <Spin style={{ display: 'block', margin: '120px auto' }} />;

  return (
    <div onKeyDown={r.onKeyDown}>
      <PageContainer
        title={title}
        subtitle={id && detail.data ? `${detail.data.consult_no || t('case.noNumberYet')} · ${detail.data.status_label?.label ?? ''}` : clinician ? t('case.clinical.registerSubtitle') : t('case.register.subtitle')}
        extra={
          !clinician && <Space>
            <Tooltip title={t('case.register.quickHint')}>
              <Space size={6}>
                <Switch checked={quick} onChange={setQuick} data-testid="quick-toggle" aria-label={t('case.register.quick')} />
                <Typography.Text>{t('case.register.quick')}</Typography.Text>
              </Space>
            </Tooltip>
          </Space>
        }
      >
        {locked && <Alert type="warning" showIcon message={t('case.register.locked')} style={{ marginBottom: 16 }} />}
        {summary.length > 0 && (
          <Alert type="error" showIcon closable onClose={() => setSummary([])} message={t('case.register.serverErrors')} description={<ul style={{ margin: 0, paddingInlineStart: 18 }}>{summary.map((s, i) => <li key={i}>{s}</li>)}</ul>} style={{ marginBottom: 16 }} />
        )}
        {clinician && !locked && <Alert type="info" showIcon message={t('case.clinical.registerHint')} style={{ marginBottom: 16 }} />}
        <Form form={form} layout="vertical" name="case-register" disabled={locked} scrollToFirstError={false} data-testid="case-register-form" requiredMark={!clinician}>
          {!clinician && <PathologySection r={r} k={k} />}
          <PatientSection r={r} k={k} />
          {!clinician && <InspectionSection k={k} />}
          {!quick && <ClinicalSection r={r} k={k} />}
          <SpecimensSection r={r} k={k} />
          {!quick && !clinician && (
            <Section id="sec-attachments" title={t('case.section.attachments')}>
              <Form.Item name="attachments" rules={[{ validator: (_, v?: AttachmentValue[]) => (fullBodyCount(v) > 1 ? Promise.reject(new Error(t('case.rule.oneFullBody'))) : Promise.resolve()) }]}>
                <AttachmentField />
              </Form.Item>
            </Section>
          )}
          {!quick && !clinician && (
            <Section id="sec-slides" title={t('case.section.slides')}>
              <Form.Item name="slide_ids">
                <SlidePicker caseId={id} />
              </Form.Item>
            </Section>
          )}
          {!clinician && <TargetSection r={r} k={k} />}
        </Form>
        <SaveBar r={r} />
      </PageContainer>
      {r.holder}
    </div>
  );
}

/** The sticky bar of save buttons (Ctrl+S draft, Ctrl+Enter save). */
function SaveBar({ r }: { r: RegisterForm }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id, detail, save, locked, submit, clinician } = r;
  if (clinician) {
    // A clinician's request is kept as the site's draft (formats checked only).
    return (
      <Flex justify="flex-end" align="center" gap={12} style={{ position: 'sticky', bottom: 0, background: '#fff', borderTop: '1px solid #e6ebf2', padding: '12px 0 0', marginTop: 8, zIndex: 2 }}>
        <Space wrap>
          <Button onClick={() => navigate(-1)}>{t('common.cancel')}</Button>
          <Button type="primary" onClick={() => void submit('draft')} loading={save.isPending} disabled={locked} data-testid="clinical-send">
            {t('case.clinical.send')}
          </Button>
        </Space>
      </Flex>
    );
  }
  return (
    <Flex justify="space-between" align="center" wrap gap={12} style={{ position: 'sticky', bottom: 0, background: '#fff', borderTop: '1px solid #e6ebf2', padding: '12px 0 0', marginTop: 8, zIndex: 2 }}>
      <Typography.Text type="secondary" style={{ fontSize: 13 }}>
        {t('case.register.keys')}
      </Typography.Text>
      <Space wrap>
        <Button onClick={() => navigate(-1)}>{t('common.cancel')}</Button>
        {(!id || detail.data?.is_draft === 1) && (
          <Button onClick={() => void submit('draft')} loading={save.isPending} disabled={locked} data-testid="save-draft">
            {t('case.register.saveDraft')}
          </Button>
        )}
        <Button onClick={() => void submit('save')} loading={save.isPending} disabled={locked} data-testid="save-case">
          {t('case.register.save')}
        </Button>
        <Button type="primary" onClick={() => void submit('charge')} loading={save.isPending} disabled={locked} data-testid="save-charge">
          {t('case.register.saveCharge')}
        </Button>
      </Space>
    </Flex>
  );
}
