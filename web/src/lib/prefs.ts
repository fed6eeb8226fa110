import { useSyncExternalStore } from 'react';
import { createStoredValue } from './storage';

export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FONT_SIZES = [14, 16, 18] as const;
export const DEFAULT_FONT_SIZE = 16;

const isLanguage = (v: string): v is Language => (LANGUAGES as readonly string[]).includes(v);
const isFontSize = (v: string): v is `${number}` => FONT_SIZES.some((s) => String(s) === v);

export const languageStore = createStoredValue<Language>('language', 'zh-CN', isLanguage);
export const fontSizeStore = createStoredValue<`${number}`>('fontSize', `${DEFAULT_FONT_SIZE}`, isFontSize);

/** True once the user picked a language themselves (the server default then no longer applies). */
export const hasChosenLanguage = () => {
  try {
    return localStorage.getItem('tp.language') !== null;
  } catch {
    return false;
  }
};
export const toLanguage = (v: string | undefined): Language | undefined => (v && isLanguage(v) ? v : undefined);

export function useLanguage(): Language {
  return useSyncExternalStore(languageStore.subscribe, languageStore.get);
}
export function useFontSize(): number {
  return Number(useSyncExternalStore(fontSizeStore.subscribe, fontSizeStore.get));
}
