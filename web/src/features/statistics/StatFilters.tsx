import { DatePicker, Flex, Segmented, Select } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { StatOptions, StatQuery } from './api';
import { SHORTCUTS, shortcutOf, shortcutRange, toDay, type Shortcut } from './period';

export type Filter = 'center' | 'hospital' | 'library' | 'expert' | 'kind';

interface Props {
  query: StatQuery;
  filters: Filter[];
  options?: StatOptions;
  onChange: (q: StatQuery) => void;
}

/** The period (shortcuts or custom days), the trend buckets and the screen's filters. */
export function StatFilters({ query, filters, options, onChange }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<StatQuery>) => onChange({ ...query, ...patch });
  const current = shortcutOf(query.start, query.end);
  const choices: Record<Filter, { value: number | string; label: string }[]> = {
    center: (options?.centers ?? []).map((o) => ({ value: o.id, label: o.name })),
    hospital: (options?.hospitals ?? []).map((o) => ({ value: o.id, label: o.name })),
    library: (options?.libraries ?? []).map((o) => ({ value: o.id, label: o.name })),
    expert: (options?.experts ?? []).map((o) => ({ value: o.id, label: o.name })),
    kind: (options?.kinds ?? []).map((k) => ({ value: k, label: t(`statistics.kind.${k}`) })),
  };
  const field: Record<Filter, keyof StatQuery> = { center: 'center_id', hospital: 'hospital_id', library: 'library_id', expert: 'expert_id', kind: 'kind' };
  return (
    <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
      <Segmented<Shortcut | 'custom'>
        data-testid="stat-shortcuts"
        value={current ?? 'custom'}
        options={[...SHORTCUTS.map((s) => ({ value: s, label: t(`statistics.period.${s}`) })), { value: 'custom', label: t('statistics.period.custom'), disabled: true }]}
        onChange={(s) => {
          if (s === 'custom') return;
          const [a, b] = shortcutRange(s);
          set({ start: toDay(a), end: toDay(b) });
        }}
      />
      <DatePicker.RangePicker
        data-testid="stat-range"
        allowClear={false}
        value={[dayjs(query.start), dayjs(query.end)]}
        aria-label={t('statistics.period.label')}
        onChange={(v) => v?.[0] && v[1] && set({ start: toDay(v[0]), end: toDay(v[1]) })}
      />
      <Segmented<'auto' | 'day' | 'week' | 'month'>
        data-testid="stat-granularity"
        value={query.granularity ?? 'auto'}
        options={(['auto', 'day', 'week', 'month'] as const).map((g) => ({ value: g, label: t(`statistics.granularity.${g}`) }))}
        onChange={(g) => set({ granularity: g === 'auto' ? undefined : g })}
      />
      {filters
        .filter((f) => f === 'kind' || f === 'library' || choices[f].length > 1)
        .map((f) => (
          <Select
            key={f}
            data-testid={`stat-filter-${f}`}
            aria-label={t(`statistics.filter.${f}`)}
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t(`statistics.filter.${f}`)}
            style={{ minWidth: 180 }}
            options={choices[f]}
            value={query[field[f]] as number | string | undefined}
            onChange={(v) => set({ [field[f]]: v ?? undefined })}
          />
        ))}
    </Flex>
  );
}
