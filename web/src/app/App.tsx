import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { i18n } from '../lib/i18n';
import { languageStore, useFontSize, useLanguage, useReducedMotion } from '../lib/prefs';
import { makeTheme } from './theme';
import './contrast.css';
import { routes } from './router';
import { useMemo } from 'react';

export const queryClient = new QueryClient({
  queryCache: new QueryCache(),
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 0 } },
});

const router = createBrowserRouter(routes);

// Server texts (messages, labels) follow the user-language header: refetch on a switch.
languageStore.subscribe(() => void queryClient.invalidateQueries());

export function App() {
  const lang = useLanguage();
  const fontSize = useFontSize();
  const reducedMotion = useReducedMotion();
  const theme = useMemo(() => makeTheme(fontSize, reducedMotion), [fontSize, reducedMotion]);
  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={lang === 'en-US' ? enUS : zhCN} theme={theme}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ConfigProvider>
    </I18nextProvider>
  );
}
