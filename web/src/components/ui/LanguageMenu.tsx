import { Dropdown } from 'antd';
import { useEffect, useState, type ReactElement } from 'react';
import { languageStore, LANGUAGES, useLanguage, type Language } from '../../lib/prefs';
import { LANGUAGE_LABELS } from './LanguageSwitch';

/** The language menu around the switch's button (loaded on first use: LanguageSwitch). */
export default function LanguageMenu({ button, defaultOpen, onMount }: { button: ReactElement; defaultOpen: boolean; onMount: () => void }) {
  const lang = useLanguage();
  const [open, setOpen] = useState(defaultOpen);
  useEffect(() => {
    onMount();
  }, [onMount]);
  return (
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
  );
}
