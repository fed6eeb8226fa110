import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import updateLocale from 'dayjs/plugin/updateLocale';
import zhCN from '../locales/zh-CN.json';
import enUS from '../locales/en-US.json';
import { languageStore, type Language } from './prefs';

dayjs.extend(updateLocale);
dayjs.updateLocale('en', { weekStart: 1 });
dayjs.updateLocale('zh-cn', { weekStart: 1 });

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
  lng: languageStore.get(),
  fallbackLng: 'zh-CN',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

function apply(lang: Language) {
  void i18n.changeLanguage(lang);
  dayjs.locale(lang === 'zh-CN' ? 'zh-cn' : 'en');
  document.documentElement.lang = lang;
}
apply(languageStore.get());
languageStore.subscribe(() => apply(languageStore.get()));
