import { useEffect } from 'react';
import { Avatar, Breadcrumb, Button, Dropdown, Flex, Tooltip } from 'antd';
import { FontSizeOutlined, LockOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { MenuEntry } from '../../lib/api/types';
import { menuTrail, routePattern } from '../../lib/menu';
import { FONT_SIZES, fontSizeStore, useFontSize, useLanguage } from '../../lib/prefs';
import { LanguageSwitch } from '../../components/ui/LanguageSwitch';
import { useAuthInfo, useConfig } from '../../lib/appData';
import { Bell } from './Bell';
import { MeetingsButton } from './MeetingsButton';

interface Props {
  menus: readonly MenuEntry[];
  collapsed: boolean;
  onToggle: () => void;
  onLock: () => void;
  onLogout: () => void;
}

export function HeaderBar({ menus, collapsed, onToggle, onLock, onLogout }: Props) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const fontSize = useFontSize();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { data: info } = useAuthInfo();
  const trail = menuTrail(menus, pathname);
  const crumbs = trail.length ? trail.map((m) => ({ title: lang === 'en-US' ? m.en_name || m.name : m.name })) : [{ title: t(`route.${pathname}`, { defaultValue: '' }) || t(`route.${routePattern(pathname)}`, { defaultValue: '' }) || pathname }];
  const name = info?.user.name || info?.user.username || '';
  const { data: config } = useConfig();
  const pageTitle = String(crumbs.at(-1)?.title ?? '');
  const appTitle = config?.page_title || t('app.title');
  // The tab shows the screen first, then the product (pathologists keep many tabs open).
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} - ${appTitle}` : appTitle;
  }, [pageTitle, appTitle]);

  return (
    <Flex align="center" justify="space-between" style={{ height: '100%' }}>
      <Flex align="center" gap={12}>
        <Button type="text" icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={onToggle} aria-label={t(collapsed ? 'shell.expand' : 'shell.collapse')} />
        <Breadcrumb items={crumbs} data-testid="breadcrumb" />
      </Flex>
      <Flex align="center" gap={4}>
        <MeetingsButton />
        <Bell />
        <LanguageSwitch />
        <Dropdown
          menu={{
            selectable: true,
            selectedKeys: [String(fontSize)],
            items: FONT_SIZES.map((s) => ({ key: String(s), label: t('shell.fontSizeOption', { size: s }) })),
            onClick: ({ key }) => fontSizeStore.set(key as `${number}`),
          }}
        >
          <Button type="text" icon={<FontSizeOutlined />} aria-label={t('shell.fontSize')} data-testid="font-size" />
        </Dropdown>
        <Tooltip title={t('shell.lock')}>
          <Button type="text" icon={<LockOutlined />} onClick={onLock} aria-label={t('shell.lock')} data-testid="lock-screen" />
        </Tooltip>
        <Dropdown
          menu={{
            items: [
              { key: 'account', icon: <SettingOutlined />, label: t('shell.account') },
              { type: 'divider' },
              { key: 'logout', icon: <LogoutOutlined />, label: t('shell.logout'), danger: true },
            ],
            onClick: ({ key }) => (key === 'account' ? navigate('/account') : onLogout()),
          }}
        >
          <Button type="text" style={{ height: 44 }} data-testid="user-menu">
            <Avatar size={28} icon={<UserOutlined />} style={{ background: '#1f6fc5' }} />
            <span style={{ marginLeft: 8 }}>{name}</span>
          </Button>
        </Dropdown>
      </Flex>
    </Flex>
  );
}
