import { useMemo } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { TokenHandoff } from '../features/auth/TokenHandoff';
import { useConfig } from '../lib/appData';
import { useFontSize, useLanguage, useReducedMotion } from '../lib/prefs';
import { queryClient } from '../lib/queryClient';
import { useSiteHead } from '../lib/siteConfig';
import { makeTheme } from '../lib/theme';
import './contrast.css';
// antd's styles for the default theme, built with the app (web/antdStyle.ts): loaded before this
// chunk runs, so antd need not build them in the browser.
import 'virtual:antd.css';

/**
 * Every screen but the sign-in page: antd's theme, locale, message, notification and modal
 * holders, the query cache, and the ?token hand-off question. A route of its own (router.tsx),
 * so /login carries none of it.
 */
export function AppLayer() {
  const lang = useLanguage();
  const fontSize = useFontSize();
  const reducedMotion = useReducedMotion();
  const theme = useMemo(() => makeTheme(fontSize, reducedMotion), [fontSize, reducedMotion]);
  return (
    <ConfigProvider locale={lang === 'en-US' ? enUS : zhCN} theme={theme}>
      <QueryClientProvider client={queryClient}>
        <AntApp>
          <SiteHead />
          <TokenHandoff />
          <Outlet />
        </AntApp>
      </QueryClientProvider>
    </ConfigProvider>
  );
}

function SiteHead() {
  useSiteHead(useConfig().data);
  return null;
}
