import { lazy, Suspense, useRef, useState } from 'react';
import TranslationOutlined from '@ant-design/icons-svg/es/asn/TranslationOutlined';
import { LANGUAGES, useLanguage } from '../../lib/prefs';
import { useSignInTexts } from '../../lib/signInTexts';
import { PlainIcon } from './PlainIcon';
import './LanguageSwitch.css';

export const LANGUAGE_LABELS: Record<(typeof LANGUAGES)[number], string> = { 'zh-CN': '简体中文', 'en-US': 'English' };

// antd's Dropdown and Menu are about 25 KB: the sign-in page loads them when the switch is first
// pointed at, focused or clicked, and the menu then opens as it would have.
const LanguageMenu = lazy(() => import('./LanguageMenu'));

/** The language switch, a plain button in antd's text-button look: the sign-in page loads no antd. */
export function LanguageSwitch() {
  const lang = useLanguage();
  const t = useSignInTexts();
  const [wanted, setWanted] = useState<'no' | 'ready' | 'open'>('no');
  const want = (how: 'ready' | 'open') => () => setWanted((w) => (w === 'no' ? how : w));
  // The menu's button replaces this one: keyboard focus moves over to it.
  const ref = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);
  const button = (
    <button
      ref={ref}
      type="button"
      className="tp-language-switch"
      aria-label={`${t('shell.language')}: ${LANGUAGE_LABELS[lang]}`}
      data-testid="language-switch"
      onPointerEnter={want('open')}
      onFocus={() => {
        hadFocus.current = true;
        want('ready')();
      }}
      onBlur={() => (hadFocus.current = false)}
      onClick={want('open')}
    >
      <PlainIcon icon={TranslationOutlined} />
      <span>{LANGUAGE_LABELS[lang]}</span>
    </button>
  );
  if (wanted === 'no') return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu button={button} defaultOpen={wanted === 'open'} onMount={() => {
          if (hadFocus.current) ref.current?.focus();
        }} />
    </Suspense>
  );
}
