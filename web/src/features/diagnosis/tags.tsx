// Small status markers of the diagnosis screens (the case status label from the
// server and the timing badge).
import { Tag, Tooltip } from 'antd';
import { ClockCircleOutlined, FieldTimeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';

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

export function StatusLabelTag({ label }: { label: { key: string; label: string; color: string } | undefined | null }) {
  if (!label) return null;
  return (
    <Tag color={TAG_COLOURS[label.color] ?? 'blue'} bordered={false} data-status={label.key} style={{ marginInlineEnd: 0 }}>
      {label.label}
    </Tag>
  );
}

export function TimingBadge({ timing, timeoutAt }: { timing: string | undefined; timeoutAt?: string | null }) {
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
