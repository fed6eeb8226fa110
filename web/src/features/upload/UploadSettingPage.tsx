import { Card, Col, Descriptions, Progress, Row, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { useAuthInfo } from '../../lib/appData';
import { useHospital } from '../../entities/org/api';
import { useFreeSpace } from './api';
import { formatFileSize } from './format';

/** /dss/upload-setting: free disk space and the hospital's storage mode (read-only). */
export default function UploadSettingPage() {
  const { t } = useTranslation();
  const free = useFreeSpace();
  const info = useAuthInfo();
  const hospitalId = info.data?.hospitals?.[0]?.id ?? null;
  const hospital = useHospital(hospitalId);
  const d = free.data;
  const mode = hospital.data?.storage_mode;
  return (
    <PageContainer title={t('upload.settingTitle')} subtitle={t('upload.settingSubtitle')}>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={10}>
          <Card title={t('upload.diskTitle')} size="small">
            {!d ? (
              <Skeleton active />
            ) : (
              <div style={{ display: 'flex', gap: 24, alignItems: 'center', flexWrap: 'wrap' }} data-testid="free-space">
                <Progress
                  type="dashboard"
                  aria-label={t('upload.diskUsed')}
                  percent={Number(d.used_percent.toFixed(2))}
                  strokeColor={d.warn ? '#d4380d' : '#027AFF'}
                  status={d.warn ? 'exception' : 'normal'}
                  format={(p) => (
                    <span style={{ fontSize: 20 }}>
                      {p?.toFixed(2)}%
                      <div style={{ fontSize: 12, color: '#6b7280', marginTop: 4 }}>{t('upload.used')}</div>
                    </span>
                  )}
                  size={180}
                />
                <Descriptions column={1} size="small" style={{ flex: 1, minWidth: 200 }}>
                  <Descriptions.Item label={t('upload.diskTotal')}>{formatFileSize(d.total)}</Descriptions.Item>
                  <Descriptions.Item label={t('upload.diskUsed')}>{formatFileSize(d.used)}</Descriptions.Item>
                  <Descriptions.Item label={t('upload.diskFree')}>
                    <Typography.Text type={d.warn ? 'danger' : undefined} strong>
                      {formatFileSize(d.free)}
                    </Typography.Text>
                  </Descriptions.Item>
                  <Descriptions.Item label={t('upload.diskReserved')}>{formatFileSize(d.reserved)}</Descriptions.Item>
                  <Descriptions.Item label={t('upload.diskMinFree')}>{formatFileSize(d.min_free)}</Descriptions.Item>
                  {d.warn && (
                    <Descriptions.Item label={t('upload.col.state')}>
                      <Tag color="error">{t('upload.lowDisk')}</Tag>
                    </Descriptions.Item>
                  )}
                </Descriptions>
              </div>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card title={t('upload.storageTitle')} size="small">
            {hospitalId === null ? (
              <Typography.Text type="secondary">{t('upload.noHospital')}</Typography.Text>
            ) : hospital.isLoading ? (
              <Skeleton active />
            ) : (
              <Descriptions column={1} size="small" data-testid="storage-mode">
                <Descriptions.Item label={t('upload.hospital')}>{hospital.data?.name ?? info.data?.hospitals?.[0]?.name}</Descriptions.Item>
                <Descriptions.Item label={t('hospital.table.storageMode')}>
                  {mode === undefined ? '—' : <Tag color={mode === 2 ? 'blue' : mode === 1 ? 'gold' : 'default'}>{t(`hospital.storageMode.${mode}`)}</Tag>}
                </Descriptions.Item>
                <Descriptions.Item label={t('upload.storageNote')}>
                  <Typography.Text type="secondary">{t('upload.storageReadOnly')}</Typography.Text>
                </Descriptions.Item>
              </Descriptions>
            )}
          </Card>
        </Col>
      </Row>
    </PageContainer>
  );
}
