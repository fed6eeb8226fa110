import { Badge } from 'antd';
import { Tabs } from '../Tabs';
import { formatBadge } from '../../../lib/list/query';
import type { ListTab } from './types';

interface Props {
  tabs: ListTab[];
  active: string;
  counts?: Record<string, number>;
  onChange: (key: string) => void;
}

/** Tabs with count badges (999+ above 999). */
export function ListTabs({ tabs, active, counts, onChange }: Props) {
  return (
    <Tabs
      activeKey={active}
      onChange={onChange}
      style={{ marginBottom: 4 }}
      items={tabs.map((tab) => ({
        key: tab.key,
        label: (
          <span data-testid={`tab-${tab.key}`}>
            {tab.label}
            {counts?.[tab.key] !== undefined && (
              <Badge count={formatBadge(counts[tab.key])} showZero overflowCount={Infinity} color={tab.key === active ? '#1f6fc5' : '#b8c4d2'} style={{ marginLeft: 6 }} />
            )}
          </span>
        ),
      }))}
    />
  );
}
