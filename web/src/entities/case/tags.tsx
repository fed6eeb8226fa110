import { Tag, Tooltip } from 'antd';
import { ClockCircleOutlined, FieldTimeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
// The case's markers shown wherever a case is: its status (label and colour from
// the server), the timing of a case under diagnosis, and its charge status.
import { formatDateTime } from '../../lib/format';
import { ChargeStatus } from './codes';

// The server's status colour names (spec 2 §4 Status colours) as antd tag
// colours — the only place this mapping exists.
const TAG_COLOURS: Record<string, string> = {
  amber: 'gold',
  red: 'red',
  purple: 'purple',
  blue: 'blue',
  pink: 'magenta',
  green: 'green',
  orange: 'orange',
  brown: 'volcano',
  indigo: 'geekblue',
  lightblue: 'cyan',
  light_blue: 'cyan',
};

export const tagColour = (name: string | undefined) => TAG_COLOURS[name ?? ''] ?? 'blue';

export function CaseStatusTag({ label }: { label: { key: string; label: string; color: string } | null | undefined }) {
  if (!label) return null;
  return (
    <Tag className="tp-case-status" color={tagColour(label.color)} bordered={false} data-status={label.key} style={{ marginInlineEnd: 0 }}>
      {label.label}
    </Tag>
  );
}

/** "Timing out soon" / "timed out" marker for cases under diagnosis. */
export function TimingTag({ timing, timeoutAt }: { timing: string | undefined; timeoutAt?: string | null }) {
  const { t } = useTranslation();
  if (timing !== 'soon' && timing !== 'timeout') return null;
  const tag =
    timing === 'timeout' ? (
      <Tag color="error" icon={<ClockCircleOutlined />} style={{ marginInlineEnd: 0 }}>
        {t('case.timing.timeout')}
      </Tag>
    ) : (
      <Tag color="warning" icon={<FieldTimeOutlined />} style={{ marginInlineEnd: 0 }}>
        {t('case.timing.soon')}
      </Tag>
    );
  return timeoutAt ? <Tooltip title={t('case.timing.deadline', { time: formatDateTime(timeoutAt).slice(0, 16) })}>{tag}</Tooltip> : tag;
}

export function ChargeTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const colour = status === ChargeStatus.Charged ? 'success' : status === ChargeStatus.Refunded ? 'default' : 'warning';
  return (
    <Tag color={colour} bordered={false} style={{ marginInlineEnd: 0 }}>
      {t(`case.chargeStatus.${status === ChargeStatus.Charged || status === ChargeStatus.Refunded ? status : ChargeStatus.None}`)}
    </Tag>
  );
}
