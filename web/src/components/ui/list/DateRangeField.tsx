import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { presetRange, RANGE_PRESETS } from '../../../lib/list/dateRanges';

type Range = [Dayjs | null, Dayjs | null] | null;

/** A date range picker with the spec's shortcuts; the value is a pair of dayjs. */
export function DateRangeField({ value, onChange, id }: { value?: Range; onChange?: (v: Range) => void; id?: string }) {
  const { t } = useTranslation();
  const presets = RANGE_PRESETS.map((p) => ({ label: t(`date.${p}`), value: presetRange(p) as [Dayjs, Dayjs] }));
  return <DatePicker.RangePicker id={id} value={value} onChange={(v) => onChange?.(v as Range)} presets={presets} style={{ width: '100%' }} allowEmpty={[false, false]} />;
}
