import { useSyncExternalStore } from 'react';
import signInZh from '../locales/zh-CN.json?texts=login';
import { languageStore, type Language } from './prefs';

// The sign-in page's texts (locales/parts.ts) without i18next: /login shows only these, so it
// does not load the translation library; lib/i18n.ts takes over with the first screen past it.
// Chinese comes with the page, English is a small chunk loaded when chosen.
type Texts = Record<string, string>;
const texts: Partial<Record<Language, Texts>> = { 'zh-CN': signInZh };
const listeners = new Set<() => void>();

/** Resolves once the sign-in texts of `lang` are in. */
export async function loadSignInTexts(lang: Language): Promise<void> {
  if (texts[lang]) return;
  texts[lang] = (await import('../locales/en-US.json?texts=login')).default;
  listeners.forEach((l) => l());
}

/** A sign-in text (a key under locales/parts.ts' prefixes) in the chosen language. */
export function signInText(key: string): string {
  return (texts[languageStore.get()] ?? signInZh)[key] ?? key;
}

// Changes when the language or its texts change: what the hook re-renders on.
const version = () => `${languageStore.get()}:${texts[languageStore.get()] ? 1 : 0}`;
const subscribe = (l: () => void) => {
  listeners.add(l);
  const off = languageStore.subscribe(l);
  return () => {
    listeners.delete(l);
    off();
  };
};

/** `t` for the sign-in page and what it shares with the signed-in screens (the language switch). */
export function useSignInTexts(): (key: string) => string {
  useSyncExternalStore(subscribe, version);
  return signInText;
}

// The page's language follows the choice; its texts load with it.
const applyLanguage = () => {
  const lang = languageStore.get();
  document.documentElement.lang = lang;
  void loadSignInTexts(lang).catch(() => undefined);
};
applyLanguage();
languageStore.subscribe(applyLanguage);
