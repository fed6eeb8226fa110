import { useEffect, useState } from 'react';
import { App, Layout, Watermark } from 'antd';
import { Outlet, useBlocker } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuthInfo, useConfig, useMenu } from '../../lib/appData';
import { useSession } from '../../lib/session';
import { HeaderBar } from './HeaderBar';
import { SideMenu } from './SideMenu';
import { useLockScreen } from './LockScreen';
import { useLogout } from '../../lib/useLogout';
import { NoticeModal } from './NoticeModal';

const COLLAPSE_WIDTH = 1440;

export default function ShellLayout() {
  const { t } = useTranslation();
  const [collapsed, setCollapsed] = useState(() => window.innerWidth <= COLLAPSE_WIDTH);
  const { locked } = useSession();
  const menus = useMenu().data ?? [];
  const { data: info } = useAuthInfo();
  const { data: config } = useConfig();
  const logout = useLogout();
  const lock = useLockScreen();
  const { modal } = App.useApp();
  // While the screen is locked navigation is cancelled (spec 1 §4).
  const blocker = useBlocker(({ nextLocation }) => locked && nextLocation.pathname !== '/login');
  useEffect(() => {
    if (blocker.state === 'blocked') blocker.reset();
  }, [blocker]);

  const confirmLogout = () =>
    modal.confirm({ title: t('shell.logoutConfirm'), okText: t('common.ok'), cancelText: t('common.cancel'), onOk: logout });
  const title = config?.page_title || t('app.title');
  const shortTitle = config?.title || 'Telepath';

  return (
    <>
      <Layout style={{ minHeight: '100vh' }} inert={locked}>
        <Layout.Sider collapsible trigger={null} collapsed={collapsed} width={232} style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}>
          <div style={{ height: 56, display: 'flex', alignItems: 'center', gap: 10, padding: collapsed ? '0 24px' : '0 20px', color: '#fff', fontWeight: 600, whiteSpace: 'nowrap', overflow: 'hidden' }}>
            <img src={config?.page_icon || '/favicon.svg'} alt="" width={28} height={28} />
            {!collapsed && <span title={title}>{shortTitle}</span>}
          </div>
          <SideMenu menus={menus} collapsed={collapsed} />
        </Layout.Sider>
        <Layout>
          <Layout.Header style={{ position: 'sticky', top: 0, zIndex: 10, boxShadow: '0 1px 4px rgba(15,42,71,0.08)' }}>
            <HeaderBar menus={menus} collapsed={collapsed} onToggle={() => setCollapsed((c) => !c)} onLock={lock} onLogout={confirmLogout} />
          </Layout.Header>
          <Layout.Content>
            {config?.watermark?.flag ? (
              <Watermark content={config.watermark.text || info?.user.name} font={{ fontSize: config.watermark.fontSize || 16, color: config.watermark.fontColor || 'rgba(0,0,0,0.08)' }}>
                <Outlet />
              </Watermark>
            ) : (
              <Outlet />
            )}
          </Layout.Content>
        </Layout>
      </Layout>
      {!locked && <NoticeModal />}
    </>
  );
}
