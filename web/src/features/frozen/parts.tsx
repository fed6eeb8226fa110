import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PHASE_COLOUR, countdown, type Phase } from './clock';
import { useNow } from '../../entities/case/FrozenElapsed';

export { Elapsed, useNow } from '../../entities/case/FrozenElapsed';

// Darker text on antd's light tag backgrounds: readable (WCAG AA contrast) on each colour.
const TEXT: Record<string, { color: string } | undefined> = {
  green: { color: '#135200' },
  gold: { color: '#613400' },
  red: { color: '#a8071a' },
  blue: { color: '#003eb3' },
  orange: { color: '#873800' },
  purple: { color: '#391085' },
};

export function PhaseTag({ phase, ignored }: { phase: string; ignored?: boolean }) {
  const { t } = useTranslation();
  return (
    <span>
      <Tag color={PHASE_COLOUR[phase as Phase] ?? 'default'} bordered={false} style={TEXT[PHASE_COLOUR[phase as Phase]]} data-testid="frozen-phase">
        {t(`frozen.phase.${phase}`)}
      </Tag>
      {ignored && <Tag bordered={false}>{t('frozen.ignored')}</Tag>}
    </span>
  );
}

/** Time left until the operation, or how long it is past. */
export function Countdown({ at }: { at: string }) {
  const { t } = useTranslation();
  const now = useNow();
  const c = countdown(at, now);
  return (
    <Typography.Text style={{ color: c.past ? '#a8071a' : c.ms < 3_600_000 ? '#874d00' : undefined }} className="tp-mono" data-testid="frozen-countdown">
      {c.past ? t('frozen.pastBy', { time: c.text }) : t('frozen.inTime', { time: c.text })}
    </Typography.Text>
  );
}
