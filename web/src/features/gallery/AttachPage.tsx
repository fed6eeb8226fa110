import { Button, Flex, Result, Space, Spin } from 'antd';
import { ArrowLeftOutlined, DownloadOutlined, EditOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { useApiError } from '../../components/ui/useApiError';
import { downloadBlob } from '../../lib/download';
import { fetchImage, useAttachment, useGallery } from '../../entities/case/gallery/api';
import { LabelledImage } from '../../entities/case/gallery/LabelledImage';
import { ImageEditor } from '../../entities/case/gallery/ImageEditor';

/** /attach/:id — one image attachment on its own page, with its labels. */
export default function AttachPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const showError = useApiError();
  const id = Number(useParams().id) || 0;
  const a = useAttachment(id);
  const g = useGallery(a.data?.consult_id ?? 0);
  const item = g.data?.items.find((i) => i.id === id) ?? a.data;
  const [editing, setEditing] = useState(false);
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
      {t('case.back')}
    </Button>
  );
  if (a.isError) {
    return (
      <PageContainer title={t('attach.title')} extra={back}>
        <Result status="404" title={t('attach.notFound')} />
      </PageContainer>
    );
  }
  if (!item) return <Spin style={{ margin: 48 }} />;
  return (
    <PageContainer
      title={`${t('attach.title')} · ${item.name}`}
      subtitle={<Link to={`/case/detail/${item.consult_id}`}>{t('attach.case', { no: g.data?.consult_no ?? item.consult_id })}</Link>}
      extra={
        <Space>
          <Button icon={<DownloadOutlined />} onClick={() => fetchImage(item.path).then((b) => downloadBlob(b, item.name), showError)}>
            {t('gallery.download')}
          </Button>
          {g.data?.editable && (
            <Button type="primary" icon={<EditOutlined />} onClick={() => setEditing(true)}>
              {t('gallery.edit')}
            </Button>
          )}
          {back}
        </Space>
      }
    >
      <Flex justify="center">
        <LabelledImage item={item} maxWidth={1200} alt={item.name} />
      </Flex>
      {editing && <ImageEditor caseId={item.consult_id} item={item} open onClose={() => setEditing(false)} onSaved={() => undefined} />}
    </PageContainer>
  );
}
