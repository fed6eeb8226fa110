import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = { success: 'success', failure: 'error', denied: 'warning', not_found: 'default' };

export function OutcomeTag({ outcome }: { outcome: string }) {
  const { t } = useTranslation();
  return <Tag color={COLORS[outcome] ?? 'default'}>{t(`audit.outcome.${outcome}`, { defaultValue: outcome })}</Tag>;
}
