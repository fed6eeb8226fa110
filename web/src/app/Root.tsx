import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { onUnauthorized } from '../lib/api/client';
import { useConfig } from '../lib/appData';
import { hasChosenLanguage, languageStore, toLanguage } from '../lib/prefs';

/** App-wide effects: document title and favicon from the config, 401 → login. */
export function Root() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { data: config } = useConfig();

  useEffect(() => {
    if (!config) return;
    if (config.page_title) document.title = config.page_title;
    if (config.page_icon) {
      let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (!link) {
        link = document.createElement('link');
        link.rel = 'icon';
        document.head.appendChild(link);
      }
      link.href = config.page_icon;
    }
    const lang = toLanguage(config.language);
    if (lang && !hasChosenLanguage()) languageStore.set(lang);
  }, [config]);

  useEffect(
    () =>
      onUnauthorized(() => {
        const here = window.location.pathname + window.location.search;
        qc.clear();
        if (!window.location.pathname.startsWith('/login')) navigate(`/login?redirect=${encodeURIComponent(here)}`, { replace: true });
      }),
    [navigate, qc],
  );

  return <Outlet />;
}
