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

const isOnOff = (v: string): v is 'on' | 'off' => v === 'on' || v === 'off';
/** Opt-in: new notifications also show as system notifications (Notification API). */
export const systemAlertStore = createStoredValue<'on' | 'off'>('systemAlerts', 'off', isOnOff);
/** Opt-in: urgent cases and task-urgent notices play a short sound. */
export const alertSoundStore = createStoredValue<'on' | 'off'>('alertSound', 'off', isOnOff);

export function useSystemAlerts(): boolean {
  return useSyncExternalStore(systemAlertStore.subscribe, systemAlertStore.get) === 'on';
}
export function useAlertSound(): boolean {
  return useSyncExternalStore(alertSoundStore.subscribe, alertSoundStore.get) === 'on';
}

const reducedMotionQuery = '(prefers-reduced-motion: reduce)';
const subscribeReducedMotion = (onChange: () => void) => {
  const m = window.matchMedia?.(reducedMotionQuery);
  m?.addEventListener('change', onChange);
  return () => m?.removeEventListener('change', onChange);
};
/** The system's "reduce motion" setting (WCAG 2.3.3): drawers, dialogs and menus then open without animation. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribeReducedMotion, () => window.matchMedia?.(reducedMotionQuery).matches ?? false);
}
