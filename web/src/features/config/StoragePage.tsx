import { useEffect } from 'react';
import { Alert, App, Button, Card, Col, Descriptions, Form, InputNumber, Progress, Row, Skeleton, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { ApiData } from '../../lib/api/types';
import { appKeys, useConfig } from '../../lib/appData';
import { formatSize } from '../../entities/case/size';
import { PageContainer } from '../../components/ui/PageContainer';
import { useApiError } from '../../components/ui/useApiError';

type Storage = ApiData<'/api/config/storage', 'get'>;
type Usage = NonNullable<Storage['hospitals']>[number];

const storageKey = ['config', 'storage'] as const;
// Solid colours with white text: antd's light gold preset fails AA contrast.
const modeColor = ['default', '#874d00', '#0958d9'];

/** /setting/storageConfig: where slides and attachments live, the disk, the low-space threshold, usage per hospital. */
export default function StoragePage() {
  const { t } = useTranslation();
  const storage = useQuery({ queryKey: storageKey, queryFn: async () => unwrap(await api.GET('/api/config/storage')) });
  const s = storage.data;
  return (
    <PageContainer title={t('storage.title')} subtitle={t('storage.subtitle')}>
      {!s ? (
        <Skeleton active />
      ) : (
        <Row gutter={[20, 20]}>
          <Col xs={24} xxl={10}>
            <DiskCard storage={s} />
          </Col>
          <Col xs={24} xxl={14}>
            <UsageCard hospitals={s.hospitals ?? []} />
          </Col>
        </Row>
      )}
    </PageContainer>
  );
}

function DiskCard({ storage }: { storage: Storage }) {
  const { t } = useTranslation();
  const d = storage.disk;
  return (
    <Card title={t('storage.disk')} size="small">
      {d.warn && <Alert type="error" showIcon message={t('storage.lowDisk', { free: formatSize(d.free - d.reserved) })} style={{ marginBottom: 16 }} />}
      <div style={{ display: 'flex', gap: 24, alignItems: 'center', flexWrap: 'wrap' }} data-testid="storage-disk">
        <Progress
          type="dashboard"
          size={160}
          aria-label={t('storage.diskUsed')}
          percent={Number(d.used_percent.toFixed(2))}
          status={d.warn ? 'exception' : 'normal'}
          strokeColor={d.warn ? '#cf1322' : '#027AFF'}
          format={(p) => (
            <span style={{ fontSize: 20 }}>
              {p?.toFixed(1)}%<div style={{ fontSize: 12, color: '#595959', marginTop: 4 }}>{t('storage.used')}</div>
            </span>
          )}
        />
        <Descriptions column={1} size="small" style={{ flex: 1, minWidth: 240 }}>
          <Descriptions.Item label={t('storage.dataDir')}>
            <Typography.Text code copyable data-testid="storage-dir">{storage.data_dir}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('storage.total')}>{formatSize(d.total)}</Descriptions.Item>
          <Descriptions.Item label={t('storage.free')}>
            <Typography.Text strong type={d.warn ? 'danger' : undefined}>{formatSize(d.free)}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('storage.reserved')}>{formatSize(d.reserved)}</Descriptions.Item>
          <Descriptions.Item label={t('storage.minFree')}>{formatSize(d.min_free)}</Descriptions.Item>
        </Descriptions>
      </div>
      <ThresholdForm />
    </Card>
  );
}

/** The administrator's low disk space threshold (system config disk_space, GB). */
function ThresholdForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const config = useConfig();
  const qc = useQueryClient();
  const showError = useApiError();
  const [form] = Form.useForm<{ disk_space: number }>();
  useEffect(() => {
    if (config.data) form.setFieldsValue({ disk_space: config.data.disk_space });
  }, [config.data, form]);
  const save = useMutation({
    mutationFn: async (diskSpace: number) => unwrap(await api.PUT('/api/config/storage/threshold', { body: { disk_space: diskSpace } })),
    onSuccess: (cfg) => {
      qc.setQueryData(appKeys.config, cfg);
      void qc.invalidateQueries({ queryKey: storageKey });
      void message.success(t('common.saved'));
    },
    onError: (e) => showError(e, form),
  });
  return (
    <Form form={form} layout="vertical" name="storage-threshold" onFinish={(v) => save.mutate(v.disk_space)} style={{ marginTop: 16 }} disabled={!config.data}>
      <Form.Item name="disk_space" label={t('storage.threshold')} rules={[{ required: true, message: t('storage.thresholdRequired') }]} extra={t('storage.thresholdHint')}>
        <InputNumber min={1} max={100000} precision={0} addonAfter="GB" style={{ width: 180 }} />
      </Form.Item>
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** The bytes of a hospital's other files without their thumbnails (file_bytes counts both; thumbnails have their own column). */
const otherBytes = (h: Usage) => h.file_bytes - h.thumb_bytes;

function UsageCard({ hospitals }: { hospitals: Usage[] }) {
  const { t } = useTranslation();
  const bytes = (h: Usage) => h.slide_bytes + h.file_bytes;
  const sum = (of: (h: Usage) => number) => hospitals.reduce((n, h) => n + of(h), 0);
  const total = sum(bytes);
  const columns: TableColumnsType<Usage> = [
    { title: t('storage.hospital'), dataIndex: 'name', ellipsis: true },
    {
      title: t('hospital.table.storageMode'), dataIndex: 'storage_mode', width: 130,
      render: (m: number) => <Tag color={modeColor[m]}>{t(`hospital.storageMode.${m}`)}</Tag>,
    },
    { title: t('storage.slides'), dataIndex: 'slides', align: 'right', width: 90 },
    { title: t('storage.slideBytes'), dataIndex: 'slide_bytes', align: 'right', width: 120, render: formatSize },
    { title: t('storage.files'), dataIndex: 'files', align: 'right', width: 90 },
    { title: t('storage.fileBytes'), key: 'file_bytes', align: 'right', width: 120, render: (_, h) => formatSize(otherBytes(h)) },
    { title: t('storage.thumbs'), dataIndex: 'thumbs', align: 'right', width: 90 },
    { title: t('storage.thumbBytes'), dataIndex: 'thumb_bytes', align: 'right', width: 120, render: formatSize },
    {
      title: t('storage.share'), key: 'share', width: 150,
      render: (_, h) => <Progress percent={total ? Math.round((bytes(h) / total) * 1000) / 10 : 0} size="small" aria-label={t('storage.shareOf', { name: h.name })} />,
    },
  ];
  return (
    <Card title={t('storage.usage')} size="small">
      <Table<Usage>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={hospitals}
        pagination={hospitals.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ x: 1000 }}
        data-testid="storage-usage"
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={2}>
              <Typography.Text strong>{t('storage.totalRow')}</Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">{sum((h) => h.slides)}</Table.Summary.Cell>
            <Table.Summary.Cell index={3} align="right">{formatSize(sum((h) => h.slide_bytes))}</Table.Summary.Cell>
            <Table.Summary.Cell index={4} align="right">{sum((h) => h.files)}</Table.Summary.Cell>
            <Table.Summary.Cell index={5} align="right">{formatSize(sum(otherBytes))}</Table.Summary.Cell>
            <Table.Summary.Cell index={6} align="right">{sum((h) => h.thumbs)}</Table.Summary.Cell>
            <Table.Summary.Cell index={7} align="right">{formatSize(sum((h) => h.thumb_bytes))}</Table.Summary.Cell>
            <Table.Summary.Cell index={8}>{formatSize(total)}</Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
    </Card>
  );
}
