import { Badge, Space, Tooltip, Typography } from 'antd';
import { EyeInvisibleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Whether a slide can be viewed, and why not (the server's reason on hover). */
export function SlideViewable({ viewable, error }: { viewable: boolean | number; error?: string | null }) {
  const { t } = useTranslation();
  if (viewable) return <Badge status="success" text={t('case.slide.viewable')} />;
  return (
    <Tooltip title={error || t('case.slide.notViewableWhy')}>
      <Space size={4}>
        <EyeInvisibleOutlined style={{ color: '#8c8c8c' }} />
        <Typography.Text type="secondary">{error ? t('case.slide.failed') : t('case.slide.notViewable')}</Typography.Text>
      </Space>
    </Tooltip>
  );
}
