import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

export default function ErrorPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="500"
      title={t('error.title')}
      subTitle={t('error.description')}
      extra={
        <Button type="primary" onClick={() => window.location.assign('/manage')}>
          {t('error.backHome')}
        </Button>
      }
    />
  );
}
