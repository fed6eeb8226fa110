import { Dropdown, Button } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { languageStore, LANGUAGES, useLanguage } from '../../lib/prefs';

const LABELS: Record<(typeof LANGUAGES)[number], string> = { 'zh-CN': '简体中文', 'en-US': 'English' };

export function LanguageSwitch({ type = 'text' }: { type?: 'text' | 'default' }) {
  const lang = useLanguage();
  const { t } = useTranslation();
  return (
    <Dropdown
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGUAGES.map((l) => ({ key: l, label: LABELS[l] })),
        onClick: ({ key }) => languageStore.set(key as (typeof LANGUAGES)[number]),
      }}
    >
      <Button type={type} icon={<TranslationOutlined />} aria-label={`${t('shell.language')}: ${LABELS[lang]}`} data-testid="language-switch">
        {LABELS[lang]}
      </Button>
    </Dropdown>
  );
}
