import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languageStore, type Language } from './prefs';

// i18next, with a language's full texts and the date locales, loads with the first screen past
// sign-in (loadAllTexts, awaited by the route that wraps every other screen); the sign-in page
// has its own few texts (lib/signInTexts.ts).
type Texts = Record<string, string>;
const full: Record<Language, () => Promise<Texts>> = {
  'zh-CN': async () => (await import('../locales/zh-CN.json')).default,
  'en-US': async () => (await import('../locales/en-US.json')).default,
};

let dates: typeof import('./dates') | undefined;
const loaded = new Set<Language>();

/** Resolves once the language's texts are in. */
export async function loadLanguage(lang: Language): Promise<void> {
  if (loaded.has(lang)) return;
  const texts = await full[lang]();
  i18n.addResourceBundle(lang, 'translation', texts, true, true);
  loaded.add(lang);
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: {},
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
  dates?.setDateLocale(lang);
}

/** Every text of the chosen language, and the date locales (both languages have the same keys). */
export async function loadAllTexts(): Promise<void> {
  dates ??= await import('./dates');
  await apply(languageStore.get());
}

languageStore.subscribe(() => void apply(languageStore.get()).catch(() => undefined));
