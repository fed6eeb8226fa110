import type { ReactNode } from 'react';
import { Alert, Badge, Button, Descriptions, Drawer, Empty, Flex, Space, Spin, Table, Tabs, Tag, Timeline, Tooltip, Typography } from 'antd';
import { DownloadOutlined, EyeInvisibleOutlined, PaperClipOutlined, ThunderboltFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useSlideJudgements } from '../../lib/slideQuality';
import { SlideGradeTag } from '../../components/slide/SlideGradeTag';
import { useCaseDetail, useCaseLog, useCaseMessages, type CaseDetail, type CaseInput } from './api';
import { CaseStatusTag, ChargeTag, TimingTag } from './status';
import { ageText } from './useCaseColumns';
import { MessageThread } from './MessageThread';
import { formatSize } from './transfer';
import type { ActionName, CaseRef } from './useCaseActions';
import { ACTION_LABEL } from './CaseRowActions';

/** Server `actions` → the buttons of the detail header. */
export function detailActions(d: CaseDetail): ActionName[] {
  const a = new Set(d.actions ?? []);
  const out: ActionName[] = [];
  if (a.has('update')) out.push('edit');
  if (a.has('update') && d.charge_status === 1) out.push('charge');
  if (a.has('submit')) out.push('submit');
  if (a.has('consult_again')) out.push('consult_again');
  if (a.has('recall')) out.push('recall');
  if (a.has('recall_agree')) out.push('recall_agree');
  if (a.has('recall_reject')) out.push('recall_reject');
  if (a.has('recall_ignore')) out.push('recall_ignore');
  if (a.has('bind_expert')) out.push('bind_expert');
  if (a.has('referral')) out.push('referral');
  if (a.has('return_to_site')) out.push('return_to_site');
  if (a.has('delete')) out.push('delete');
  return out;
}

export const detailRef = (d: CaseDetail): CaseRef => ({ id: d.id, consult_no: d.consult_no, patient_name: d.patient_name, center_id: d.center_id, expert_id: d.expert_id, charge_status: d.charge_status });

const ATTACHMENT_TYPES = [0, 1, 2, 3, 4, 5, 6, 7] as const;
export { ATTACHMENT_TYPES };

function useText() {
  const { t } = useTranslation();
  return {
    t,
    v: (x: unknown): ReactNode => (x === undefined || x === null || x === '' ? <Typography.Text type="secondary">—</Typography.Text> : String(x)),
    e: (prefix: string, x: unknown): ReactNode => (x ? t(`${prefix}.${String(x)}`) : <Typography.Text type="secondary">—</Typography.Text>),
    b: (x: unknown): ReactNode => (x ? t('case.yes') : t('case.no')),
    long: (x: unknown): ReactNode => (x ? <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{String(x)}</Typography.Paragraph> : <Typography.Text type="secondary">—</Typography.Text>),
  };
}

function Overview({ d }: { d: CaseDetail }) {
  const { t, v, e, b, long } = useText();
  const c = (d.case ?? {}) as Partial<CaseInput>;
  const desc = (title: string, items: { label: string; children: ReactNode; span?: number }[]) => (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }} title={title} items={items.map((i, k) => ({ key: k, ...i }))} style={{ marginBottom: 20 }} styles={{ label: { width: 130, whiteSpace: 'nowrap' } }} />
  );
  return (
    <>
      {desc(t('case.section.patient'), [
        { label: t('case.field.name'), children: v(c.name ?? d.patient_name) },
        { label: t('case.field.gender'), children: e('case.gender', c.gender ?? d.gender) },
        { label: t('case.field.age'), children: ageText(t, d.age, d.age_unit) },
        { label: t('case.field.idType'), children: e('case.idType', c.id_type) },
        { label: t('case.field.idNumber'), children: v(c.id_number) },
        { label: t('case.field.birthday'), children: v(c.birthday) },
        { label: t('case.field.phone'), children: v(c.phone) },
        { label: t('case.field.nation'), children: v(c.nation) },
        { label: t('case.field.career'), children: v(c.career) },
        { label: t('case.field.married'), children: e('case.married', c.is_married) },
        { label: t('case.field.birthplace'), children: v(c.birthplace), span: 2 },
      ])}
      {desc(t('case.section.inspection'), [
        { label: t('case.field.inspectionHospital'), children: v(c.inspection_hospital) },
        { label: t('case.field.inspectionDepartment'), children: v(c.inspection_department) },
        { label: t('case.field.inspectionDoctor'), children: v(c.inspection_doctor) },
        { label: t('case.field.inspectionDate'), children: v(c.inspection_date?.slice(0, 10)) },
        { label: t('case.field.outpatientNumber'), children: v(c.outpatient_number) },
        { label: t('case.field.admissionNumber'), children: v(c.admission_number) },
        { label: t('case.field.bedNo'), children: v(c.bed_no) },
        { label: t('case.field.ward'), children: v(c.ward) },
        { label: t('case.field.treatType'), children: e('case.treatType', c.treat_type) },
        { label: t('case.field.feeType'), children: e('case.feeType', c.fee_type) },
      ])}
      {desc(t('case.section.clinical'), [
        { label: t('case.field.clinicalDiagnosis'), children: long(c.clinical_diagnosis), span: 3 },
        { label: t('case.field.medicalHistory'), children: long(c.medical_history), span: 3 },
        { label: t('case.field.operationSeen'), children: long(c.operation_seen), span: 3 },
        { label: t('case.field.generallySeen'), children: long(c.generally_seen), span: 3 },
        { label: t('case.field.otherTests'), children: long(c.other_tests), span: 3 },
        { label: t('case.field.immunohistochemistry'), children: long(c.immunohistochemisty), span: 3 },
        { label: t('case.field.infectious'), children: b(c.infectious_specimen) },
        { label: t('case.field.lastMenses'), children: v(c.last_menses) },
        { label: t('case.field.menopause'), children: b(c.menopause) },
        { label: t('case.field.consultPurpose'), children: long(c.consult_purpose), span: 3 },
      ])}
      {desc(t('case.section.pathology'), [
        { label: t('case.field.library'), children: v(d.library_name) },
        { label: t('case.field.pathologyNumber'), children: <span className="tp-mono">{d.pathology_number || '—'}</span> },
        { label: t('case.field.originalPathologyNumber'), children: <span className="tp-mono">{c.original_pathology_number || '—'}</span> },
        { label: t('case.field.center'), children: v(d.center_name) },
        { label: t('case.field.expert'), children: d.expert_name || <Typography.Text type="secondary">{t('case.unassigned')}</Typography.Text> },
        { label: t('case.field.staff'), children: v(d.staff_name) },
        { label: t('case.field.chargeStatus'), children: <ChargeTag status={d.charge_status} /> },
        { label: t('case.field.createdAt'), children: formatDateTime(d.created_at) },
        { label: t('case.field.submittedAt'), children: formatDateTime(d.submitted_at) },
        { label: t('case.field.timeoutAt'), children: formatDateTime(d.timeout_at) },
      ])}
      <Typography.Title level={5}>{t('case.section.specimens')}</Typography.Title>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={d.specimens ?? []}
        locale={{ emptyText: t('case.specimen.none') }}
        expandable={{
          defaultExpandAllRows: true,
          rowExpandable: (s) => (s.blocks ?? []).length > 0,
          expandedRowRender: (s) => (
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={s.blocks ?? []}
              columns={[
                { key: 'name', dataIndex: 'name', title: t('case.block.name'), width: 140 },
                { key: 'slide_number', dataIndex: 'slide_number', title: t('case.block.slideNumber'), width: 120 },
                { key: 'draw_part', dataIndex: 'draw_part', title: t('case.block.drawPart'), width: 160 },
                { key: 'gross', dataIndex: 'gross_description', title: t('case.block.gross') },
              ]}
            />
          ),
        }}
        columns={[
          { key: 'serial', dataIndex: 'serial_number', title: t('case.specimen.serial'), width: 70 },
          { key: 'name', dataIndex: 'name', title: t('case.specimen.name') },
          { key: 'type', dataIndex: 'specimen_type', title: t('case.specimen.type'), width: 120, render: (x: string) => (x ? t(`case.specimenType.${x}`) : '—') },
          { key: 'part', dataIndex: 'part', title: t('case.specimen.part'), width: 140 },
          { key: 'count', dataIndex: 'count', title: t('case.specimen.count'), width: 70 },
          { key: 'fixative', dataIndex: 'fixative', title: t('case.specimen.fixative'), width: 120 },
          { key: 'blocks', title: t('case.specimen.blockCount'), width: 80, render: (_: unknown, s) => s.blocks?.length ?? 0 },
        ]}
      />
    </>
  );
}

function Files({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Title level={5}>{t('case.section.attachments')}</Typography.Title>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={d.attachments ?? []}
        locale={{ emptyText: t('case.attachment.none') }}
        columns={[
          { key: 'type', dataIndex: 'type', title: t('case.attachment.type'), width: 160, render: (x: number) => <Tag bordered={false}>{t(`case.attachmentType.${x}`)}</Tag> },
          { key: 'filename', dataIndex: 'filename', title: t('case.attachment.file'), render: (x: string) => <Space><PaperClipOutlined />{x}</Space> },
          { key: 'size', dataIndex: 'size', title: t('case.attachment.size'), width: 110, render: (x: number) => formatSize(x) },
          {
            key: 'dl',
            title: t('common.actions'),
            width: 110,
            render: (_: unknown, a) => (
              <Button type="link" size="small" icon={<DownloadOutlined />} href={a.url} target="_blank" rel="noreferrer" download={a.filename}>
                {t('case.attachment.download')}
              </Button>
            ),
          },
        ]}
        style={{ marginBottom: 24 }}
      />
      <Typography.Title level={5}>{t('case.section.slides')}</Typography.Title>
      <SlideTable slides={d.slides ?? []} caseId={d.id} />
    </>
  );
}

/** The case's slides; with caseId (a submitted case) also the expert's verdict on each slide's quality. */
export function SlideTable({ slides, caseId = 0 }: { slides: CaseDetail['slides']; caseId?: number }) {
  const { t } = useTranslation();
  const judgements = useSlideJudgements(caseId);
  return (
    <Table
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={[...(slides ?? [])].filter((s) => s.status !== -1).sort((a, b) => a.sort - b.sort)}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.slide.none')} /> }}
      columns={[
        { key: 'filename', dataIndex: 'filename', title: t('case.slide.file'), ellipsis: true },
        { key: 'specimen', dataIndex: 'specimen_name', title: t('case.slide.specimen'), width: 140, render: (x: string) => x || '—' },
        { key: 'block', dataIndex: 'paraffin_block_name', title: t('case.slide.block'), width: 110, render: (x: string) => x || '—' },
        { key: 'ranse', dataIndex: 'ranse', title: t('case.slide.stain'), width: 90, render: (x: string) => x || 'HE' },
        { key: 'format', dataIndex: 'format', title: t('case.slide.format'), width: 90, render: (x: string) => (x ? x.toUpperCase() : '—') },
        { key: 'size', dataIndex: 'filesize', title: t('case.attachment.size'), width: 110, render: (x: number) => formatSize(x) },
        ...(caseId > 0 ? [{ key: 'quality', title: t('slideQuality.title'), width: 130, render: (_: unknown, s: { id: number }) => <SlideGradeTag j={judgements.data?.get(s.id)} /> }] : []),
        {
          key: 'viewable',
          title: t('case.slide.view'),
          width: 200,
          render: (_: unknown, s) =>
            s.viewable ? (
              <Badge status="success" text={t('case.slide.viewable')} />
            ) : (
              <Tooltip title={s.error || t('case.slide.notViewableWhy')}>
                <Space size={4}>
                  <EyeInvisibleOutlined style={{ color: '#8c8c8c' }} />
                  <Typography.Text type="secondary">{s.error ? t('case.slide.failed') : t('case.slide.notViewable')}</Typography.Text>
                </Space>
              </Tooltip>
            ),
        },
      ]}
    />
  );
}

function CaseLog({ id }: { id: number }) {
  const { t } = useTranslation();
  const log = useCaseLog(id);
  if (log.isLoading) return <Spin />;
  if (!log.data?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.log.none')} />;
  return (
    <Timeline
      style={{ paddingTop: 8 }}
      items={log.data.map((l) => ({
        key: l.id,
        children: (
          <div>
            <Space size={8} wrap>
              <Typography.Text strong>{l.action_text || l.action}</Typography.Text>
              {l.from_text !== l.to_text && (
                <Typography.Text type="secondary">
                  {l.from_text || '—'} → {l.to_text || '—'}
                </Typography.Text>
              )}
            </Space>
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                {formatDateTime(l.created_at)} · {l.user_name || l.username || t('case.log.system')}
              </Typography.Text>
            </div>
            {l.detail && <Typography.Paragraph style={{ margin: '4px 0 0', whiteSpace: 'pre-wrap' }}>{l.detail}</Typography.Paragraph>}
          </div>
        ),
      }))}
    />
  );
}

/** The header line: number, status, timing, urgency, charge. */
export function CaseHeadline({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  return (
    <Space size={8} wrap>
      <Typography.Text strong className="tp-mono" style={{ fontSize: 18 }}>
        {d.consult_no || t('case.noNumberYet')}
      </Typography.Text>
      <CaseStatusTag label={d.status_label} />
      <TimingTag timing={d.timing} timeoutAt={d.timeout_at} />
      {d.expedite === 1 && (
        <Tag color="red" icon={<ThunderboltFilled />}>
          {t('case.expedite')}
        </Tag>
      )}
      <Typography.Text type="secondary">
        {d.pathology_number ? `${t('case.field.pathologyNumber')} ${d.pathology_number} · ` : ''}
        {d.patient_name} · {d.gender ? t(`case.gender.${d.gender}`) : ''} · {ageText(t, d.age, d.age_unit)} · {d.hospital_name}
      </Typography.Text>
    </Space>
  );
}

/** The case detail shared by every role. */
export function CaseDetailView({ id, onAction }: { id: number; onAction?: (a: ActionName, c: CaseRef) => void }) {
  const { t } = useTranslation();
  const detail = useCaseDetail(id);
  const msgs = useCaseMessages(id);
  if (detail.isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (detail.error || !detail.data) return <Alert type="error" showIcon message={detail.error?.message ?? t('case.loadFailed')} />;
  const d = detail.data;
  const actions = detailActions(d);
  return (
    <div data-testid="case-detail">
      <Flex justify="space-between" align="flex-start" gap={12} wrap style={{ marginBottom: 12 }}>
        <CaseHeadline d={d} />
        {onAction && actions.length > 0 && (
          <Space wrap>
            {actions.map((a, i) => (
              <Button key={a} type={i === 0 ? 'primary' : 'default'} danger={a === 'delete' || a === 'return_to_site' || a === 'recall_reject'} onClick={() => onAction(a, detailRef(d))} data-testid={`detail-${a}`}>
                {t(ACTION_LABEL[a])}
              </Button>
            ))}
          </Space>
        )}
      </Flex>
      {d.recall_reason && <Alert type="warning" showIcon message={t('case.field.recallReason')} description={d.recall_reason} style={{ marginBottom: 12 }} />}
      {d.return_reason && <Alert type="error" showIcon message={t('case.field.returnReason')} description={d.return_reason} style={{ marginBottom: 12 }} />}
      <Tabs
        items={[
          { key: 'overview', label: t('case.tabs.overview'), children: <Overview d={d} /> },
          { key: 'files', label: `${t('case.tabs.files')} (${(d.attachments?.length ?? 0) + (d.slides?.length ?? 0)})`, children: <Files d={d} /> },
          { key: 'log', label: t('case.tabs.log'), children: <CaseLog id={id} /> },
          { key: 'messages', label: `${t('case.tabs.messages')} (${msgs.data?.length ?? 0})`, children: <MessageThread caseId={id} height={360} /> },
        ]}
      />
    </div>
  );
}

export function CaseDetailDrawer({ id, onClose, onAction }: { id: number | null; onClose: () => void; onAction: (a: ActionName, c: CaseRef) => void }) {
  const { t } = useTranslation();
  return (
    <Drawer open={id !== null} onClose={onClose} width="min(1120px, 92vw)" title={t('case.detailTitle')} destroyOnHidden data-testid="case-detail-drawer">
      {id !== null && <CaseDetailView id={id} onAction={onAction} />}
    </Drawer>
  );
}
