import { DownOutlined } from '@ant-design/icons';
import { Badge, Button, Dropdown, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Tabs } from '../Tabs';
import { formatBadge } from '../../../lib/list/query';
import type { ListTab } from './types';

interface Props {
  tabs: ListTab[];
  active: string;
  counts?: Record<string, number>;
  onChange: (key: string) => void;
}

/**
 * Tabs with count badges (999+ above 999). Tabs marked `more` (views a screen needs
 * now and then) leave the tab bar for a "More views" menu at its end, each with its
 * badge; while one of them is shown, the menu's button names it and carries its badge.
 * The button sits beside the tab list, not in it: a tab list holds only tabs.
 */
export function ListTabs({ tabs, active, counts, onChange }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const label = (tab: ListTab, on: boolean) => (
    <span data-testid={`tab-${tab.key}`}>
      {tab.label}
      {counts?.[tab.key] !== undefined && (
        <Badge count={formatBadge(counts[tab.key])} showZero overflowCount={Infinity} color={on ? '#1f6fc5' : '#b8c4d2'} style={{ marginLeft: 6 }} />
      )}
    </span>
  );
  const more = tabs.filter((tab) => tab.more);
  const shown = more.find((tab) => tab.key === active);
  const menu = more.length > 0 && (
    <Dropdown
      trigger={['click']}
      menu={{ items: more.map((tab) => ({ key: tab.key, label: label(tab, tab.key === active) })), selectable: true, selectedKeys: shown ? [shown.key] : [], onClick: ({ key }) => onChange(key) }}
    >
      <Button type={shown ? 'primary' : 'text'} ghost={!!shown} data-testid="tab-more" aria-label={shown ? t('list.moreViewsShown', { view: shown.label }) : t('list.moreViews')}>
        {shown ? label(shown, true) : t('list.moreViews')}
        <DownOutlined />
      </Button>
    </Dropdown>
  );
  const bar = (
    <Tabs
      activeKey={shown ? '' : active}
      onChange={onChange}
      style={{ marginBottom: 4, flex: 1, minWidth: 0 }}
      items={tabs.filter((tab) => !tab.more).map((tab) => ({ key: tab.key, label: label(tab, tab.key === active) }))}
    />
  );
  if (!menu) return bar;
  return (
    <div style={{ display: 'flex', alignItems: 'flex-start' }}>
      {bar}
      <div style={{ height: 47, display: 'flex', alignItems: 'center', paddingLeft: 8, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>{menu}</div>
    </div>
  );
}
