import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { i18n } from '../lib/i18n';
import { StyleProvider, createCache } from '@ant-design/cssinjs';

/** Renders `element` at `path` inside the app's providers; returns the router too. */
export function renderAt(element: ReactElement, url = '/', path = '/') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path, element }], { initialEntries: [url] });
  const utils = render(
    <StyleProvider mock="server" cache={createCache()}>
      <I18nextProvider i18n={i18n}>
        <ConfigProvider locale={zhCN}>
          <AntApp>
            <QueryClientProvider client={qc}>
              <RouterProvider router={router} />
            </QueryClientProvider>
          </AntApp>
        </ConfigProvider>
      </I18nextProvider>
    </StyleProvider>,
  );
  return { ...utils, router, qc };
}
