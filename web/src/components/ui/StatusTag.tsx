import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Enabled/disabled status (1/0) as a coloured tag. */
export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return status === 1 ? <Tag color="success">{t('common.status.enabled')}</Tag> : <Tag color="default">{t('common.status.disabled')}</Tag>;
}

/** The enabled/disabled choices (1/0) for a radio group or a search select. */
export function useStatusOptions() {
  const { t } = useTranslation();
  return [
    { value: 1, label: t('common.status.enabled') },
    { value: 0, label: t('common.status.disabled') },
  ];
}
