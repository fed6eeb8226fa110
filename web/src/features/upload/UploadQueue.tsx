import { useEffect, useRef } from 'react';
import { App, Button, Empty, Progress, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { CaretRightOutlined, CloseOutlined, DeleteOutlined, FolderOpenOutlined, PauseOutlined, RedoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { actionsFor, type UploadState, type UserAction } from './machine';
import { restoreUnfinished, uploads, useUploads, type UploadItem } from './manager';
import { formatDuration, formatFileSize, formatSpeed } from './format';

const STATE_COLOR: Record<UploadState, string> = { idle: 'default', uploading: 'processing', uploaded: 'success', failed: 'error', stopping: 'warning', canceled: 'default' };

export function UploadStateTag({ state }: { state: UploadState }) {
  const { t } = useTranslation();
  return <Tag color={STATE_COLOR[state]}>{t(`upload.state.${state}`)}</Tag>;
}

const ICON: Record<UserAction, React.ReactNode> = { start: <CaretRightOutlined />, stop: <PauseOutlined />, restart: <RedoOutlined />, cancel: <CloseOutlined /> };

/** This browser's uploads: progress, speed, time left, state and stop / start / restart / cancel. */
export function UploadQueue() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useUploads();
  const picker = useRef<HTMLInputElement>(null);
  const pickFor = useRef<string | null>(null);

  useEffect(() => {
    void restoreUnfinished();
  }, []);

  const columns = [
    {
      key: 'name',
      title: t('upload.col.file'),
      render: (_: unknown, r: UploadItem) => (
        <div style={{ minWidth: 0 }}>
          <Typography.Text ellipsis style={{ maxWidth: 360, display: 'block' }}>
            {r.name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatFileSize(r.size)}
            {r.consultId ? ` · ${t('upload.forCase', { id: r.consultId })}` : ''}
          </Typography.Text>
        </div>
      ),
    },
    {
      key: 'progress',
      title: t('upload.col.progress'),
      width: 280,
      render: (_: unknown, r: UploadItem) => {
        if (r.needsFile) return <Typography.Text type="warning">{t('upload.reselectHint')}</Typography.Text>;
        if (r.hashing !== null && r.state === 'uploading')
          return (
            <div>
              <Progress percent={Math.floor(r.hashing * 100)} size="small" status="active" strokeColor="#8b5cf6" aria-label={t('upload.hashing')} />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('upload.hashing')}
              </Typography.Text>
            </div>
          );
        const pct = r.size ? Math.floor((r.sent / r.size) * 100) : 0;
        return (
          <div>
            <Progress percent={r.state === 'uploaded' ? 100 : pct} size="small" status={r.state === 'failed' ? 'exception' : r.state === 'uploading' ? 'active' : r.state === 'uploaded' ? 'success' : 'normal'} aria-label={`${t('upload.col.progress')}: ${r.name}`} />
            {r.error && (
              <Typography.Text type="danger" style={{ fontSize: 12 }}>
                {r.error}
              </Typography.Text>
            )}
            {r.state === 'uploaded' && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('upload.processingHint')}
              </Typography.Text>
            )}
          </div>
        );
      },
    },
    { key: 'speed', title: t('upload.col.speed'), width: 110, render: (_: unknown, r: UploadItem) => (r.state === 'uploading' && r.hashing === null ? formatSpeed(r.speed) : '—') },
    {
      key: 'eta',
      title: t('upload.col.remaining'),
      width: 100,
      render: (_: unknown, r: UploadItem) => (r.state === 'uploading' && r.hashing === null && r.speed > 0 ? formatDuration((r.size - r.sent) / r.speed) : '—'),
    },
    { key: 'state', title: t('upload.col.state'), width: 110, render: (_: unknown, r: UploadItem) => <UploadStateTag state={r.state} /> },
    {
      key: 'actions',
      title: t('common.actions'),
      width: 200,
      render: (_: unknown, r: UploadItem) => (
        <Space size={4}>
          {r.needsFile ? (
            <Button
              size="small"
              type="primary"
              icon={<FolderOpenOutlined />}
              onClick={() => {
                pickFor.current = r.key;
                picker.current?.click();
              }}
            >
              {t('upload.reselect')}
            </Button>
          ) : (
            actionsFor(r.state).map((a) => (
              <Tooltip key={a} title={t(`upload.action.${a}`)}>
                <Button size="small" icon={ICON[a]} danger={a === 'cancel'} onClick={() => uploads.act(r.key, a)} data-testid={`upload-${a}`}>
                  {t(`upload.action.${a}`)}
                </Button>
              </Tooltip>
            ))
          )}
          {(r.needsFile || r.state === 'uploaded' || r.state === 'canceled' || r.state === 'failed') && (
            <Tooltip title={t('upload.removeRow')}>
              <Button size="small" type="text" icon={<DeleteOutlined />} onClick={() => uploads.remove(r.key)} aria-label={t('upload.removeRow')} />
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <input
        ref={picker}
        type="file"
        hidden
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f && pickFor.current && !uploads.reattach(pickFor.current, f)) void message.error(t('upload.reselectMismatch'));
        }}
      />
      <Table<UploadItem>
        rowKey="key"
        size="middle"
        columns={columns}
        dataSource={list}
        pagination={false}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('upload.queueEmpty')} /> }}
        data-testid="upload-queue"
      />
      {list.some((i) => i.state === 'uploaded' || i.state === 'canceled') && (
        <Button type="link" onClick={() => uploads.clearFinished()} style={{ paddingLeft: 0 }}>
          {t('upload.clearFinished')}
        </Button>
      )}
    </>
  );
}
