import { Badge, Button, Empty, Flex, Space, Table, Tag, Typography } from 'antd';
import { EyeOutlined, PaperClipOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../components/ui/useApiError';
import { useSlideJudgements } from '../../lib/slideQuality';
import { shownSlides, type CaseDetail } from '../../entities/case/api';
import { openFile } from './api';
import { SlideQualityCell } from './SlideQuality';
import { Gallery } from '../../entities/case/gallery/Gallery';

/** The slides (with the expert's quality verdicts) and the attachments of the case. */
export function CaseInfoFiles({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const showError = useApiError();
  const slides = shownSlides(d.slides);
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
          {t('gallery.title')}
        </Typography.Title>
        <Gallery caseId={d.id} />
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
