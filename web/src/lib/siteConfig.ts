import { useEffect, useState } from 'react';
import { api } from './api/client';
import { unwrap } from './api/errors';
import { hasChosenLanguage, languageStore, toLanguage, useLanguage } from './prefs';

type SiteConfig = Awaited<ReturnType<typeof fetchSiteConfig>>;
let last: SiteConfig | undefined;

/** The system config (title, logo, captcha, language…); the last answer is kept for useConfig. */
export async function fetchSiteConfig() {
  const config = unwrap(await api.GET('/api/config/setting'));
  last = config;
  return config;
}

/** The config the sign-in page fetched: the signed-in screens start from it (lib/appData useConfig). */
export const lastSiteConfig = () => last;

/**
 * The config for the sign-in page, which has no query cache (lib/queryClient is past sign-in):
 * fetched once, again on a language switch; `failed` when it could not be loaded.
 */
export function useSiteConfig(): { data?: SiteConfig; failed: boolean } {
  const lang = useLanguage();
  const [state, setState] = useState<{ data?: SiteConfig; failed: boolean }>({ failed: false });
  useEffect(() => {
    let live = true;
    fetchSiteConfig().then(
      (data) => live && setState({ data, failed: false }),
      () => live && setState((s) => ({ ...s, failed: true })),
    );
    return () => {
      live = false;
    };
  }, [lang]);
  return state;
}

/** The page's title and icon from the config, and its language unless the user chose one. */
export function useSiteHead(config: SiteConfig | undefined) {
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
}
