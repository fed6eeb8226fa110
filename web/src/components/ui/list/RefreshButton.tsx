import { useState } from 'react';
import { Button, Tooltip } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export const MIN_SPIN_MS = 500;

/** Refetches; the icon spins for at least 500 ms so the click is visibly acknowledged. */
export function RefreshButton({ onRefresh }: { onRefresh: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const [spinning, setSpinning] = useState(false);
  const click = async () => {
    setSpinning(true);
    await Promise.allSettled([onRefresh(), new Promise((r) => setTimeout(r, MIN_SPIN_MS))]);
    setSpinning(false);
  };
  return (
    <Tooltip title={t('list.refresh')}>
      <Button icon={<ReloadOutlined spin={spinning} />} onClick={() => void click()} aria-label={t('list.refresh')} data-testid="list-refresh" />
    </Tooltip>
  );
}
