import { useState } from 'react';
import { Button, Modal, Space, Spin, Table, Tag, Tooltip } from 'antd';
import { CloudUploadOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCase, type CaseDetail } from '../../entities/case/api';
import { SlideViewable } from '../../entities/case/SlideViewable';
import { CaseListScreen } from './CaseListScreen';
import { useCaseSearchFields } from './searchFields';

/** A slide's upload state as the server keeps it (slides.status). */
const UPLOAD_STATE: Record<number, { key: string; color: string }> = {
  0: { key: 'uploading', color: 'blue' },
  1: { key: 'uploaded', color: 'geekblue' },
  2: { key: 'processing', color: 'purple' },
  3: { key: 'failed', color: 'red' },
};

type CaseSlide = NonNullable<CaseDetail['slides']>[number];

/** Each slide of a case with its upload state and its check (viewable, or why not). */
function CaseSlides({ id }: { id: number }) {
  const { t } = useTranslation();
  const c = useCase(id);
  if (c.isLoading) return <Spin style={{ display: 'block', margin: '40px auto' }} />;
  return (
    <Table<CaseSlide>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={c.data?.slides ?? []}
      data-testid="uploader-slides"
      columns={[
        { key: 'filename', dataIndex: 'filename', title: t('case.slide.file'), ellipsis: true },
        { key: 'ranse', dataIndex: 'ranse', title: t('case.slide.stain'), width: 90, render: (x: string) => x || 'HE' },
        {
          key: 'upload',
          title: t('case.uploader.uploadState'),
          width: 130,
          render: (_: unknown, s) => {
            const st = UPLOAD_STATE[s.status] ?? UPLOAD_STATE[1];
            const tag = (
              <Tag color={st.color} bordered={false}>
                {t(`case.uploader.state.${st.key}`)}
              </Tag>
            );
            return s.error ? <Tooltip title={s.error}>{tag}</Tooltip> : tag;
          },
        },
        { key: 'check', title: t('case.uploader.checkState'), width: 200, render: (_: unknown, s) => <SlideViewable viewable={s.viewable} error={s.error} /> },
      ]}
    />
  );
}

/**
 * /case/uploader — an uploader's cases of their hospital (spec 1 §2 Other
 * roles): registered with their slides, each slide's upload and check state,
 * and uploaded slides attached to a case still being registered (edit).
 */
export default function UploaderCasesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [slidesOf, setSlidesOf] = useState<{ id: number; no: string } | null>(null);
  const searchFields = useCaseSearchFields(['pathology_number', 'patient_name', 'consult_no', 'status', 'created_at']);
  return (
    <>
      <CaseListScreen
        tableId="case.uploader"
        title={t('case.uploader.title')}
        subtitle={t('case.uploader.subtitle')}
        tabs={['all', 'unsubmitted', 'submitted', 'completed']}
        columns={['consult_no', 'pathology_number', 'patient_name', 'status', 'slide_count', 'center_name', 'created_at']}
        hiddenColumns={['hospital_name', 'submitted_at']}
        actions={['view', 'edit', 'charge', 'submit', 'delete']}
        actionsWidth={320}
        searchFields={searchFields}
        rowExtra={(r) => (
          <Button type="link" size="small" onClick={() => setSlidesOf({ id: r.id, no: r.consult_no || r.pathology_number || r.patient_name })} data-testid={`case-slides-${r.id}`}>
            {t('case.uploader.slides')}
          </Button>
        )}
        toolbar={
          <Space>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/case/register/new')} data-testid="case-register">
              {t('case.register.new')}
            </Button>
            <Button icon={<CloudUploadOutlined />} onClick={() => navigate('/dss/uploading')} data-testid="upload-manager">
              {t('case.uploader.uploadManager')}
            </Button>
          </Space>
        }
      />
      <Modal open={slidesOf !== null} onCancel={() => setSlidesOf(null)} footer={null} width={760} title={t('case.uploader.slidesOf', { no: slidesOf?.no ?? '' })} destroyOnHidden>
        {slidesOf && <CaseSlides id={slidesOf.id} />}
      </Modal>
    </>
  );
}
