import { useEffect, useMemo, useState } from 'react';
import { AutoComplete, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { suggest } from '../../../lib/list/history';
import { useSearchHistory } from './useSearchHistory';

interface Props {
  tableId: string;
  value: string;
  placeholder?: string;
  onSearch: (text: string) => void;
}

/** Free-text search with history suggestions (10 shown, 200 kept). */
export function SearchBox({ tableId, value, placeholder, onSearch }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const { history, record } = useSearchHistory(tableId);
  const options = useMemo(() => suggest(history, text).map((e) => ({ value: e.name, label: e.name })), [history, text]);
  const submit = (v: string) => {
    record(v);
    onSearch(v.trim());
  };
  return (
    <AutoComplete options={options} value={text} onChange={setText} onSelect={submit} style={{ width: 280 }}>
      <Input.Search allowClear placeholder={placeholder ?? t('list.searchPlaceholder')} onSearch={submit} aria-label={t('list.search')} data-testid="list-search" />
    </AutoComplete>
  );
}
