import { lazy, Suspense, useRef, useState } from 'react';
import { Button } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, useLanguage } from '../../lib/prefs';

export const LANGUAGE_LABELS: Record<(typeof LANGUAGES)[number], string> = { 'zh-CN': '简体中文', 'en-US': 'English' };

// antd's Dropdown and Menu are about 25 KB: the sign-in page loads them when the switch is first
// pointed at, focused or clicked, and the menu then opens as it would have.
const LanguageMenu = lazy(() => import('./LanguageMenu'));

export function LanguageSwitch({ type = 'text' }: { type?: 'text' | 'default' }) {
  const lang = useLanguage();
  const { t } = useTranslation();
  const [wanted, setWanted] = useState<'no' | 'ready' | 'open'>('no');
  const want = (how: 'ready' | 'open') => () => setWanted((w) => (w === 'no' ? how : w));
  // The menu's button replaces this one: keyboard focus moves over to it.
  const ref = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);
  const button = (
    <Button
      ref={ref}
      type={type}
      icon={<TranslationOutlined />}
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
      {LANGUAGE_LABELS[lang]}
    </Button>
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
