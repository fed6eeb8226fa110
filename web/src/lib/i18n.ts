import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import signInZh from '../locales/zh-CN.json?texts=login';
import { languageStore, type Language } from './prefs';

// The sign-in page comes with the Chinese sign-in texts only (locales/parts.ts); English's are
// a small chunk. A language's full texts, and the date locales, load with the first screen
// past sign-in (loadAllTexts, awaited by the route that wraps every other screen).
type Texts = Record<string, string>;
const signIn: Record<Language, () => Promise<Texts>> = {
  'zh-CN': async () => signInZh,
  'en-US': async () => (await import('../locales/en-US.json?texts=login')).default,
};
const full: Record<Language, () => Promise<Texts>> = {
  'zh-CN': async () => (await import('../locales/zh-CN.json')).default,
  'en-US': async () => (await import('../locales/en-US.json')).default,
};

let everything = false;
let dates: typeof import('./dates') | undefined;
const loaded = new Set<string>();

/** Resolves once the language's texts (the sign-in ones, or all after loadAllTexts) are in. */
export async function loadLanguage(lang: Language): Promise<void> {
  const part = everything ? 'all' : 'sign-in';
  if (loaded.has(`${lang}:all`) || loaded.has(`${lang}:${part}`)) return;
  const texts = await (everything ? full : signIn)[lang]();
  i18n.addResourceBundle(lang, 'translation', texts, true, true);
  loaded.add(`${lang}:${part}`);
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: { ...signInZh } } },
  partialBundledLanguages: true,
  lng: 'zh-CN',
  fallbackLng: 'zh-CN',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
loaded.add('zh-CN:sign-in');

async function apply(lang: Language) {
  await loadLanguage(lang);
  if (languageStore.get() !== lang) return; // switched again meanwhile
  void i18n.changeLanguage(lang);
  dates?.setDateLocale(lang);
  document.documentElement.lang = lang;
}

/** Every text of the chosen language, and the date locales (both languages have the same keys). */
export async function loadAllTexts(): Promise<void> {
  if (!everything) {
    everything = true;
    dates = await import('./dates');
  }
  await apply(languageStore.get());
}

/** Resolves once the chosen language is in: the app first renders then (main.tsx). */
export const i18nReady = apply(languageStore.get()).catch(() => undefined);
languageStore.subscribe(() => void apply(languageStore.get()));
