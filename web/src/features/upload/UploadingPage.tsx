import { useEffect } from 'react';
import { Alert, Progress, Tag, Tooltip, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { formatDateTime } from '../../lib/format';
import { countUploads, fetchUploads, SLIDE_STATUS, uploadKeys, useFreeSpace, type SlideFile } from './api';
import { formatFileSize } from './format';
import { uploads, CONCURRENCY } from './manager';
import { UploadQueue } from './UploadQueue';

export function ServerStatus({ row }: { row: SlideFile }) {
  const { t } = useTranslation();
  if (row.status === SLIDE_STATUS.processing) return <Tag color="processing">{t('upload.server.processing')}</Tag>;
  if (row.status === SLIDE_STATUS.uploading) return <Tag color="blue">{t('upload.server.uploading')}</Tag>;
  if (row.status === SLIDE_STATUS.failed)
    return (
      <Tooltip title={row.error}>
        <Tag color="error">{t('upload.server.failed')}</Tag>
      </Tooltip>
    );
  return row.viewable === 1 ? <Tag color="success">{t('upload.server.viewable')}</Tag> : <Tag color="warning">{t('upload.server.notViewable')}</Tag>;
}

export function LowDiskAlert() {
  const { t } = useTranslation();
  const free = useFreeSpace();
  if (!free.data?.warn) return null;
  return <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('upload.lowDisk')} description={t('upload.lowDiskDetail', { free: formatFileSize(free.data.free), percent: free.data.used_percent.toFixed(2) })} />;
}

/** /dss/uploading: choose or drop slide files; this browser's queue; the server's processing and failed uploads. */
export default function UploadingPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();

  // The server processes finished uploads in the background: poll while this page is open.
  useEffect(() => {
    const h = setInterval(() => void qc.invalidateQueries({ queryKey: uploadKeys.all }), 5000);
    return () => clearInterval(h);
  }, [qc]);

  const columns: ListColumn<SlideFile>[] = [
    { key: 'id', title: 'ID', width: 80, sortable: true },
    { key: 'filename', title: t('upload.col.file'), width: 280, sortable: true },
    { key: 'filesize', title: t('upload.col.size'), width: 120, sortable: true, render: (v: number) => formatFileSize(v) },
    {
      key: 'progress',
      title: t('upload.col.progress'),
      width: 200,
      render: (_: unknown, r) => (r.status === SLIDE_STATUS.uploading ? <Progress percent={r.progress} size="small" aria-label={`${t('upload.col.progress')}: ${r.filename}`} /> : r.status === SLIDE_STATUS.processing ? <Progress percent={100} size="small" status="active" showInfo={false} aria-label={`${t('upload.col.progress')}: ${r.filename}`} /> : '—'),
    },
    { key: 'status', title: t('upload.col.state'), width: 130, render: (_: unknown, r) => <ServerStatus row={r} /> },
    {
      key: 'error',
      title: t('upload.col.reason'),
      width: 300,
      render: (v: string) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : '—'),
    },
    { key: 'created_at', title: t('upload.col.createdAt'), width: 170, sortable: true, render: (v: string) => formatDateTime(v) },
  ];

  return (
    <PageContainer title={t('upload.uploadingTitle')} subtitle={t('upload.uploadingSubtitle', { n: CONCURRENCY })}>
      <LowDiskAlert />
      <Upload.Dragger
        multiple
        showUploadList={false}
        beforeUpload={(file, list) => {
          if (file === list[0]) uploads.add(list as unknown as File[]);
          return false;
        }}
        style={{ marginBottom: 16 }}
        data-testid="upload-drop"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('upload.drop')}</p>
        <p className="ant-upload-hint">{t('upload.dropHint')}</p>
      </Upload.Dragger>
      <UploadQueue />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('upload.serverTitle')}
      </Typography.Title>
      <DataList<SlideFile>
        tableId="dss.uploading"
        queryKey={uploadKeys.all}
        fetchList={fetchUploads()}
        fetchCount={countUploads}
        columns={columns}
        defaultSort={{ id: 'desc' }}
        tabs={[
          { key: 'uploading', label: t('upload.tab.uploading') },
          { key: 'failed', label: t('upload.tab.failed') },
        ]}
        searchPlaceholder={t('upload.searchPlaceholder')}
        emptyText={t('upload.serverEmpty')}
      />
    </PageContainer>
  );
}
