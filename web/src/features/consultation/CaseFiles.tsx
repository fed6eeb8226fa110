import { Button, Empty, Space, Table, Tag, Typography } from 'antd';
import { DownloadOutlined, PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSlideJudgements } from '../../lib/slideQuality';
import { SlideGradeTag } from '../../components/slide/SlideGradeTag';
import { shownSlides, type CaseDetail } from '../../entities/case/api';
import { formatSize } from './transfer';
import { SlideViewable } from '../../entities/case/SlideViewable';
import { Gallery } from '../../entities/case/gallery/Gallery';

/** The case's attachments (to download) and slides. */
export function CaseFiles({ d }: { d: CaseDetail }) {
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
      {d.id > 0 && (
        <>
          <Typography.Title level={5}>{t('gallery.title')}</Typography.Title>
          <div style={{ marginBottom: 24 }}>
            <Gallery caseId={d.id} />
          </div>
        </>
      )}
      <Typography.Title level={5}>{t('case.section.slides')}</Typography.Title>
      <SlideTable slides={d.slides} caseId={d.id} />
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
      dataSource={shownSlides(slides)}
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
          render: (_: unknown, s) => <SlideViewable viewable={s.viewable} error={s.error} />,
        },
      ]}
    />
  );
}
