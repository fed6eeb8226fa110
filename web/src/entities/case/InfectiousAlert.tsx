// The warning an infectious specimen carries wherever the case is read (the
// expert's workspace, the case detail): what it carries, among the center's
// infectious_specimen options (diagnosis settings).
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

export function infectiousOf(c: Record<string, unknown> | null | undefined): { infectious: boolean; agents: string[] } {
  const agents = Array.isArray(c?.infectious_agents) ? (c.infectious_agents as unknown[]).filter((a): a is string => typeof a === 'string') : [];
  return { infectious: !!c?.infectious_specimen || agents.length > 0, agents };
}

/** A warning banner for an infectious specimen; nothing otherwise. */
export function InfectiousAlert({ c }: { c: Record<string, unknown> | null | undefined }) {
  const { t } = useTranslation();
  const { infectious, agents } = infectiousOf(c);
  if (!infectious) return null;
  return (
    <Alert
      type="warning"
      showIcon
      role="alert"
      data-testid="infectious-alert"
      message={agents.length ? t('case.infectiousAlertWith', { agents: agents.join(', ') }) : t('case.infectiousAlert')}
    />
  );
}
