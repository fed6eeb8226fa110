import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import updateLocale from 'dayjs/plugin/updateLocale';
import zhCN from '../locales/zh-CN.json';
import { languageStore, type Language } from './prefs';

dayjs.extend(updateLocale);
dayjs.updateLocale('en', { weekStart: 1 });
dayjs.updateLocale('zh-cn', { weekStart: 1 });

// Chinese, the default, comes with the app; English is a chunk of its own, loaded
// before the app first renders in it (main.tsx) and when a user switches to it.
const bundles: Record<Language, () => Promise<Record<string, string>>> = {
  'zh-CN': async () => zhCN,
  'en-US': async () => (await import('../locales/en-US.json')).default,
};

/** Resolves once the language's texts are in. */
export async function loadLanguage(lang: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lang, 'translation')) i18n.addResourceBundle(lang, 'translation', await bundles[lang]());
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN } },
  partialBundledLanguages: true,
  lng: 'zh-CN',
  fallbackLng: 'zh-CN',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

async function apply(lang: Language) {
  await loadLanguage(lang);
  if (languageStore.get() !== lang) return; // switched again meanwhile
  void i18n.changeLanguage(lang);
  dayjs.locale(lang === 'zh-CN' ? 'zh-cn' : 'en');
  document.documentElement.lang = lang;
}
/** Resolves once the chosen language is in: the app first renders then (main.tsx). */
export const i18nReady = apply(languageStore.get()).catch(() => undefined);
languageStore.subscribe(() => void apply(languageStore.get()));
