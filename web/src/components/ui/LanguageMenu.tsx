import { ConfigProvider, Dropdown } from 'antd';
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { languageStore, LANGUAGES, useFontSize, useLanguage, useReducedMotion, type Language } from '../../lib/prefs';
import { makeTheme } from '../../lib/theme';
import { LANGUAGE_LABELS } from './LanguageSwitch';

/**
 * The language menu around the switch's button (loaded on first use: LanguageSwitch), in the
 * app's theme also on the sign-in page, which has no antd theme of its own.
 */
export default function LanguageMenu({ button, defaultOpen, onMount }: { button: ReactElement; defaultOpen: boolean; onMount: () => void }) {
  const lang = useLanguage();
  const fontSize = useFontSize();
  const reducedMotion = useReducedMotion();
  const theme = useMemo(() => makeTheme(fontSize, reducedMotion), [fontSize, reducedMotion]);
  const [open, setOpen] = useState(defaultOpen);
  useEffect(() => {
    onMount();
  }, [onMount]);
  return (
    <ConfigProvider theme={theme}>
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGUAGES.map((l) => ({ key: l, label: LANGUAGE_LABELS[l] })),
        onClick: ({ key }) => languageStore.set(key as Language),
      }}
    >
      {button}
    </Dropdown>
    </ConfigProvider>
  );
}
