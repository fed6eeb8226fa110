// The left side of the workspace: patient and clinical data, specimens and
// blocks, attachments, slides, messages, the case log and invitations.
import { type ReactNode } from 'react';
import { Badge, Button, Descriptions, Empty, Flex, List, Space, Spin, Table, Tabs, Tag, Timeline, Typography } from 'antd';
import { EyeOutlined, PaperClipOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useApiError } from '../../components/ui/useApiError';
import { openFile, useCaseInvitations, useCaseLog, useCaseMessages, useDeleteMessage, usePostMessage, useSameCases, type CaseDetail } from './api';
import { MessageThread } from '../../components/ui/MessageThread';
import { useViewerInfo } from '../../lib/slideViewer';
import { useSlideJudgements } from '../../lib/slideQuality';
import { SlideQualityCell } from './SlideQuality';

type CaseForm = Record<string, unknown>;

function useText() {
  const { t } = useTranslation();
  const none = <Typography.Text type="secondary">—</Typography.Text>;
  return {
    t,
    v: (x: unknown): ReactNode => (x === undefined || x === null || x === '' ? none : String(x)),
    long: (x: unknown): ReactNode => (x ? <span style={{ whiteSpace: 'pre-wrap' }}>{String(x)}</span> : none),
  };
}

export function ageText(age: number | null | undefined, unit: string | undefined, t: (k: string) => string) {
  if (age == null) return '—';
  const u = unit === 'month' || unit === 'day' ? t(`diagnosis.ageUnit.${unit}`) : t('diagnosis.ageUnit.year');
  return `${age}${u}`;
}

function Overview({ d }: { d: CaseDetail }) {
  const { t, v, long } = useText();
  const c = (d.case ?? {}) as CaseForm;
  const gender = c.gender ?? d.gender;
  return (
    <Flex vertical gap={12}>
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }}
        styles={{ label: { width: 110, whiteSpace: 'nowrap' } }}
        items={[
          { key: 'name', label: t('case.field.name'), children: v(c.name ?? d.patient_name) },
          { key: 'gender', label: t('case.field.gender'), children: gender ? t(`case.gender.${String(gender)}`) : '—' },
          { key: 'age', label: t('case.field.age'), children: ageText(d.age, d.age_unit, t) },
          { key: 'pn', label: t('case.field.pathologyNumber'), children: <span className="tp-mono">{d.pathology_number || '—'}</span> },
          { key: 'hos', label: t('case.field.hospital'), children: v(d.hospital_name) },
          { key: 'lib', label: t('case.field.library'), children: v(d.library_name) },
          ...(c.inspection_hospital && c.inspection_hospital !== d.hospital_name ? [{ key: 'ih', label: t('case.field.inspectionHospital'), children: v(c.inspection_hospital) }] : []),
          { key: 'dept', label: t('case.field.inspectionDepartment'), children: v(c.inspection_department) },
          { key: 'doc', label: t('case.field.inspectionDoctor'), children: v(c.inspection_doctor) },
          { key: 'date', label: t('case.field.inspectionDate'), children: v(typeof c.inspection_date === 'string' ? c.inspection_date.slice(0, 10) : d.inspection_date?.slice(0, 10)) },
          { key: 'sub', label: t('case.field.submittedAt'), children: formatDateTime(d.submitted_at) },
          { key: 'due', label: t('case.field.timeoutAt'), children: formatDateTime(d.timeout_at) },
        ]}
      />
      <Descriptions
        size="small"
        bordered
        column={1}
        styles={{ label: { width: 110, whiteSpace: 'nowrap', verticalAlign: 'top' } }}
        items={[
          { key: 'cd', label: t('case.field.clinicalDiagnosis'), children: long(c.clinical_diagnosis) },
          { key: 'mh', label: t('case.field.medicalHistory'), children: long(c.medical_history) },
          { key: 'os', label: t('case.field.operationSeen'), children: long(c.operation_seen) },
          { key: 'gs', label: t('case.field.generallySeen'), children: long(c.generally_seen) },
          { key: 'ot', label: t('case.field.otherTests'), children: long(c.other_tests) },
          { key: 'ihc', label: t('case.field.immunohistochemistry'), children: long(c.immunohistochemisty) },
          { key: 'cp', label: t('case.field.consultPurpose'), children: long(c.consult_purpose) },
          ...(d.delay_days ? [{ key: 'delay', label: t('diagnosis.delayed'), children: t('diagnosis.delayedText', { days: d.delay_days, reason: d.delay_reason }) }] : []),
        ]}
      />
      <SlideStrip d={d} />
    </Flex>
  );
}

type CaseSlideRow = NonNullable<CaseDetail['slides']>[number];

/** One slide as a thumbnail card; a click opens it in the viewer (new tab). */
function SlideThumb({ s, caseId }: { s: CaseSlideRow; caseId: number }) {
  const { t } = useTranslation();
  const info = useViewerInfo(s.viewable ? s.id : null);
  const box = { width: 168, height: 112, borderRadius: 6, background: '#f3f5f8', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' } as const;
  const img = info.data?.thumbnail_url ? (
    <img src={info.data.thumbnail_url} alt={s.filename} style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
  ) : info.isLoading ? (
    <Spin size="small" />
  ) : (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {s.error ? t('case.slide.failed') : t('case.slide.notViewable')}
    </Typography.Text>
  );
  const body = (
    <Flex vertical gap={4} style={{ width: 168 }}>
      <div style={box}>{img}</div>
      <Typography.Text ellipsis={{ tooltip: s.filename }} style={{ fontSize: 12 }}>
        {s.filename}
      </Typography.Text>
    </Flex>
  );
  return s.viewable ? (
    <Link to={`/slide/view/${s.id}?case=${caseId}`} target="_blank" data-testid={`slide-thumb-${s.id}`} title={t('diagnosis.openViewer')}>
      {body}
    </Link>
  ) : (
    body
  );
}

/** The case's slides as thumbnails, on the first tab: the expert starts here. */
function SlideStrip({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const slides = [...(d.slides ?? [])].filter((s) => s.status !== -1).sort((a, b) => a.sort - b.sort);
  return (
    <div data-testid="slide-strip">
      <Typography.Text strong>
        {t('case.section.slides')} <Typography.Text type="secondary">({slides.length})</Typography.Text>
      </Typography.Text>
      {slides.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.slide.none')} />
      ) : (
        <Flex gap={12} wrap style={{ marginTop: 8 }}>
          {slides.map((s) => (
            <SlideThumb key={s.id} s={s} caseId={d.id} />
          ))}
        </Flex>
      )}
    </div>
  );
}

function Specimens({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  return (
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
              { key: 'name', dataIndex: 'name', title: t('case.block.name'), width: 100 },
              { key: 'slide_number', dataIndex: 'slide_number', title: t('case.block.slideNumber'), width: 90 },
              { key: 'draw_part', dataIndex: 'draw_part', title: t('case.block.drawPart'), width: 140 },
              { key: 'gross', dataIndex: 'gross_description', title: t('case.block.gross') },
            ]}
          />
        ),
      }}
      columns={[
        { key: 'serial', dataIndex: 'serial_number', title: t('case.specimen.serial'), width: 60 },
        { key: 'name', dataIndex: 'name', title: t('case.specimen.name') },
        { key: 'part', dataIndex: 'part', title: t('case.specimen.part'), width: 120 },
        { key: 'count', dataIndex: 'count', title: t('case.specimen.count'), width: 70 },
        { key: 'fixative', dataIndex: 'fixative', title: t('case.specimen.fixative'), width: 130 },
      ]}
    />
  );
}

function Files({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const showError = useApiError();
  const slides = [...(d.slides ?? [])].filter((s) => s.status !== -1).sort((a, b) => a.sort - b.sort);
  const judgements = useSlideJudgements(d.id);
  const canJudge = (d.actions ?? []).includes('slide_judge');
  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {t('case.section.slides')} <Typography.Text type="secondary">({slides.length})</Typography.Text>
        </Typography.Title>
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={slides}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.slide.none')} /> }}
          columns={[
            {
              key: 'filename',
              title: t('case.slide.file'),
              render: (_: unknown, s) => (
                <Flex vertical style={{ minWidth: 0 }}>
                  <Typography.Text ellipsis={{ tooltip: s.filename }}>{s.filename}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {[s.specimen_name, s.paraffin_block_name, s.ranse || 'HE'].filter(Boolean).join(' · ')}
                  </Typography.Text>
                </Flex>
              ),
            },
            {
              key: 'quality',
              title: t('slideQuality.title'),
              width: 160,
              render: (_: unknown, s) => <SlideQualityCell caseId={d.id} slideId={s.id} name={s.filename} j={judgements.data?.get(s.id)} canJudge={canJudge} />,
            },
            {
              key: 'open',
              title: t('case.slide.view'),
              width: 130,
              render: (_: unknown, s) =>
                s.viewable ? (
                  <Link to={`/slide/view/${s.id}?case=${d.id}`} target="_blank" data-testid={`open-slide-${s.id}`}>
                    <Space size={4}>
                      <EyeOutlined />
                      {t('diagnosis.openViewer')}
                    </Space>
                  </Link>
                ) : (
                  <Badge status={s.error ? 'error' : 'processing'} text={s.error ? t('case.slide.failed') : t('case.slide.notViewable')} />
                ),
            },
          ]}
        />
      </div>
      <div>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {t('case.section.attachments')}
        </Typography.Title>
        {(d.attachments ?? []).length === 0 ? (
          <Typography.Text type="secondary">{t('case.attachment.none')}</Typography.Text>
        ) : (
          <Flex vertical gap={4}>
            {(d.attachments ?? []).map((a) => (
              <Flex key={a.id} gap={8} align="center">
                <Tag bordered={false}>{t(`case.attachmentType.${a.type}`)}</Tag>
                <Button type="link" size="small" icon={<PaperClipOutlined />} onClick={() => openFile(a.file_id).catch(showError)} style={{ padding: 0 }}>
                  {a.filename}
                </Button>
              </Flex>
            ))}
          </Flex>
        )}
      </div>
    </Flex>
  );
}

function Messages({ id }: { id: number }) {
  const msgs = useCaseMessages(id);
  const post = usePostMessage();
  const del = useDeleteMessage();
  return (
    <MessageThread
      caseId={id}
      messages={msgs.data}
      loading={msgs.isLoading}
      sending={post.isPending}
      onSend={(content) => post.mutateAsync({ id, content })}
      onDelete={(m) => del.mutateAsync(m)}
    />
  );
}

function Log({ id }: { id: number }) {
  const { t } = useTranslation();
  const log = useCaseLog(id);
  if (log.isLoading) return <Spin />;
  if (!log.data?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.log.none')} />;
  return (
    <Timeline
      items={[...log.data].reverse().map((l) => ({
        key: l.id,
        children: (
          <div>
            <Typography.Text strong>{l.action_text || l.action}</Typography.Text>{' '}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {l.user_name || t('case.log.system')} · {formatDateTime(l.created_at)}
            </Typography.Text>
            {l.from_text && l.to_text && l.from_text !== l.to_text && (
              <div style={{ fontSize: 12 }}>
                {l.from_text} → {l.to_text}
              </div>
            )}
            {l.detail && <div style={{ fontSize: 12, whiteSpace: 'pre-wrap' }}>{l.detail}</div>}
          </div>
        ),
      }))}
    />
  );
}

function SameCases({ id }: { id: number }) {
  const { t } = useTranslation();
  const same = useSameCases(id);
  if (same.isLoading) return <Spin />;
  if (!same.data?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagnosis.sameCase.none')} />;
  return (
    <List
      data-testid="same-cases"
      itemLayout="vertical"
      dataSource={same.data}
      renderItem={(c) => (
        <List.Item key={c.id}>
          <Space size={8} wrap>
            <Typography.Text strong className="tp-mono">{c.pathology_number}</Typography.Text>
            <Typography.Text type="secondary">{c.consult_no} · {c.hospital_name} · {formatDateTime(c.submitted_at)}</Typography.Text>
          </Space>
          <div style={{ marginTop: 4, whiteSpace: 'pre-wrap' }}>
            {c.opinion ? c.opinion : <Typography.Text type="secondary">{t('diagnosis.sameCase.noReport')}</Typography.Text>}
          </div>
          {c.opinion && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {c.expert_name} · {formatDateTime(c.published_at)}
            </Typography.Text>
          )}
        </List.Item>
      )}
    />
  );
}

function Invitations({ id }: { id: number }) {
  const { t } = useTranslation();
  const inv = useCaseInvitations(id);
  if (inv.isLoading) return <Spin />;
  return (
    <List
      size="small"
      dataSource={inv.data ?? []}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagnosis.invite.none')} /> }}
      renderItem={(i) => (
        <List.Item>
          <List.Item.Meta
            title={
              <Space size={6} wrap>
                <span>{i.inviter_name} → {i.invitee_name}</span>
                <Tag color={i.reply ? 'success' : 'processing'} bordered={false}>
                  {i.reply ? t('diagnosis.invite.replied') : t('diagnosis.invite.waiting')}
                </Tag>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatDateTime(i.created_at)}
                </Typography.Text>
              </Space>
            }
            description={
              <>
                <div style={{ whiteSpace: 'pre-wrap' }}>{i.message}</div>
                {i.reply && (
                  <div style={{ whiteSpace: 'pre-wrap', marginTop: 4, color: '#1f2937', background: '#f6ffed', padding: '4px 8px', borderRadius: 6 }}>
                    {t('diagnosis.invite.replyLabel')}: {i.reply}
                  </div>
                )}
              </>
            }
          />
        </List.Item>
      )}
    />
  );
}

/** The case side of the workspace, as tabs so everything fits on one screen. */
export function CaseInfo({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const inv = useCaseInvitations(d.id);
  const msgs = useCaseMessages(d.id);
  const same = useSameCases(d.id);
  const slides = (d.slides ?? []).filter((s) => s.status !== -1).length;
  const label = (text: string, n?: number) => (n ? <Space size={4}>{text}<Badge count={n} size="small" color="#8c9bb0" /></Space> : text);
  return (
    <Tabs
      size="small"
      defaultActiveKey="overview"
      items={[
        { key: 'overview', label: t('diagnosis.tab.overview'), children: <Overview d={d} /> },
        { key: 'specimens', label: label(t('diagnosis.tab.specimens'), d.specimens?.length), children: <Specimens d={d} /> },
        { key: 'files', label: label(t('diagnosis.tab.files'), slides + (d.attachments?.length ?? 0)), children: <Files d={d} /> },
        { key: 'messages', label: label(t('case.message.thread'), msgs.data?.length), children: <Messages id={d.id} /> },
        { key: 'same', label: label(t('diagnosis.tab.sameCase'), same.data?.length), children: <SameCases id={d.id} /> },
        { key: 'log', label: t('diagnosis.tab.log'), children: <Log id={d.id} /> },
        { key: 'invitations', label: label(t('diagnosis.tab.invitations'), inv.data?.length), children: <Invitations id={d.id} /> },
      ]}
    />
  );
}
