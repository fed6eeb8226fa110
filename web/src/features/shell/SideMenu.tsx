import { useMemo, useState, useEffect } from 'react';
import { Badge, Menu, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { MenuEntry } from '../../lib/api/types';
import { useLanguage } from '../../lib/prefs';
import { menuTrail } from '../../lib/menu';
import { useBadgeCount } from '../../lib/badges';
import { formatBadge } from '../../lib/list/query';
import { MenuIcon } from './MenuIcon';

type Item = Required<MenuProps>['items'][number];

function Label({ entry, text }: { entry: MenuEntry; text: string }) {
  const n = useBadgeCount(entry.count || undefined);
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', justifyContent: 'space-between', width: '100%', gap: 8 }}>
      <span>{text}</span>
      {!!n && <Badge count={formatBadge(n)} color={entry.count_color || undefined} size="small" />}
    </span>
  );
}

function toItems(entries: readonly MenuEntry[], lang: string, depth = 0): Item[] {
  return entries
    .filter((m) => m.is_show !== '0' && m.menu !== false)
    .map((m) => {
      const text = lang === 'en-US' ? m.en_name || m.name : m.name;
      const kids = (m.children ?? []).filter((c) => c.is_show !== '0');
      const icon = depth === 0 ? <MenuIcon name={m.icon_path} /> : undefined;
      return kids.length
        ? { key: `group:${m.route_name || m.uri}`, icon, label: text, children: toItems(kids, lang, depth + 1) }
        : { key: m.uri, icon, label: <Label entry={m} text={text} />, title: text };
    });
}

export function SideMenu({ menus, collapsed }: { menus: readonly MenuEntry[]; collapsed: boolean }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const items = useMemo(() => toItems(menus, lang), [menus, lang]);
  const trail = useMemo(() => menuTrail(menus, pathname), [menus, pathname]);
  const groupKeys = trail.slice(0, -1).map((m) => `group:${m.route_name || m.uri}`);
  const [openKeys, setOpenKeys] = useState<string[]>(groupKeys);
  useEffect(() => setOpenKeys((k) => Array.from(new Set([...k, ...groupKeys]))), [groupKeys.join()]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={[trail.at(-1)?.uri ?? pathname]}
      openKeys={collapsed ? undefined : openKeys}
      onOpenChange={setOpenKeys}
      onClick={({ key }) => !key.startsWith('group:') && navigate(key)}
      aria-label={t('shell.menu')}
      data-testid="side-menu"
    />
  );
}
