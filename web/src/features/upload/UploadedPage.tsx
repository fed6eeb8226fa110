import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EyeOutlined, FileImageOutlined, WarningOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { useConfirmDelete } from '../../components/ui/useConfirm';
import { formatDateTime } from '../../lib/format';
import { useViewerInfo } from '../../lib/slideViewer';
import { deleteSlide, fetchUploads, uploadKeys, type SlideFile } from './api';
import { formatFileSize } from './format';
import { LowDiskAlert } from './UploadingPage';

function Thumbnail({ row }: { row: SlideFile }) {
  const info = useViewerInfo(row.viewable === 1 ? row.id : null);
  return (
    <div style={{ width: 72, height: 44, background: '#f3f4f6', borderRadius: 4, display: 'grid', placeItems: 'center', overflow: 'hidden' }}>
      {info.data?.thumbnail_url ? <img src={info.data.thumbnail_url} alt="" loading="lazy" style={{ maxWidth: 72, maxHeight: 44 }} /> : row.viewable === 1 ? <FileImageOutlined style={{ color: '#9ca3af' }} /> : <WarningOutlined style={{ color: '#d97706' }} />}
    </div>
  );
}

const fetchUploaded = fetchUploads('uploaded');

/** /dss/uploaded: the hospital's uploaded slides, viewable or not (with the reason), open or delete. */
export default function UploadedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const confirmDelete = useConfirmDelete();

  const columns: ListColumn<SlideFile>[] = [
    { key: 'thumbnail', title: t('upload.col.thumbnail'), width: 100, ellipsis: false, render: (_: unknown, r) => <Thumbnail row={r} /> },
    { key: 'filename', title: t('upload.col.file'), width: 260, sortable: true, filterable: true },
    { key: 'format', title: t('upload.col.format'), width: 100, sortable: true, filterable: true, render: (v: string) => (v ? v.toUpperCase() : '—') },
    { key: 'filesize', title: t('upload.col.size'), width: 120, sortable: true, render: (v: number) => formatFileSize(v) },
    { key: 'ranse', title: t('upload.col.stain'), width: 90, sortable: true },
    {
      key: 'viewable',
      title: t('upload.col.viewable'),
      width: 300,
      ellipsis: false,
      render: (_: unknown, r) =>
        r.viewable === 1 ? (
          <Tag color="success">{t('upload.server.viewable')}</Tag>
        ) : (
          <Space direction="vertical" size={0}>
            <Tag color="warning">{t('upload.server.notViewable')}</Tag>
            {r.error && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {r.error}
              </Typography.Text>
            )}
          </Space>
        ),
    },
    { key: 'specimen_name', title: t('upload.col.specimen'), width: 140, defaultHidden: true },
    { key: 'created_at', title: t('upload.col.createdAt'), width: 170, sortable: true, render: (v: string) => formatDateTime(v) },
    {
      key: 'actions',
      title: t('common.actions'),
      width: 170,
      fixed: 'right',
      render: (_: unknown, r) => (
        <Space size={4}>
          <Tooltip title={r.viewable === 1 ? undefined : r.error}>
            <Button size="small" icon={<EyeOutlined />} disabled={r.viewable !== 1} onClick={() => navigate(`/slide/view/${r.id}${r.consult_id ? `?case=${r.consult_id}` : ''}`)} data-testid="slide-open">
              {t('upload.open')}
            </Button>
          </Tooltip>
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            onClick={() =>
              confirmDelete(async () => {
                await deleteSlide(r.id);
                await qc.invalidateQueries({ queryKey: uploadKeys.all });
              })
            }
          >
            {t('common.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title={t('upload.uploadedTitle')} subtitle={t('upload.uploadedSubtitle')}>
      <LowDiskAlert />
      <DataList<SlideFile>
        tableId="dss.uploaded"
        queryKey={[...uploadKeys.all, 'uploaded']}
        fetchList={fetchUploaded}
        columns={columns}
        defaultSort={{ created_at: 'desc' }}
        searchPlaceholder={t('upload.searchPlaceholder')}
        emptyText={t('upload.uploadedEmpty')}
      />
    </PageContainer>
  );
}
