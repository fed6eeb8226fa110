// A star that adds the case to my favourites (/diagnosis/collect) or removes it.
import { Button, Tooltip } from 'antd';
import { StarFilled, StarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../components/ui/useApiError';
import { useCollect } from './expertApi';

export function CollectStar({ id, collected, size = 'middle' }: { id: number; collected: boolean; size?: 'small' | 'middle' }) {
  const { t } = useTranslation();
  const showError = useApiError();
  const collect = useCollect();
  const label = collected ? t('expertActions.uncollect') : t('expertActions.collect');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size={size}
        aria-label={label}
        aria-pressed={collected}
        loading={collect.isPending}
        icon={collected ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
        onClick={(e) => {
          e.stopPropagation();
          collect.mutate({ id, on: !collected }, { onError: (err) => showError(err) });
        }}
        data-testid={`collect-${id}`}
      />
    </Tooltip>
  );
}
