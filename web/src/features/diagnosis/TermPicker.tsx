// Diagnosis terms in a popover: search, pick a category, one click (or Enter
// for the first match) inserts the term where the expert was writing.
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { App, Button, Empty, Flex, Input, Popover, Segmented, Spin, Tag, Typography, type InputRef } from 'antd';
import { SearchOutlined, TagsOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTerms, type Term } from './api';
import { ALL_CATEGORIES, filterTerms, termCategories } from './terms';

interface Props {
  disabled?: boolean;
  /** Inserts the text; false when it does not fit. */
  onPick: (text: string) => boolean;
  /** Called when the popover is dismissed without a pick (Esc). */
  onDismiss?: () => void;
}

export function TermPicker({ disabled, onPick, onDismiss }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const [category, setCategory] = useState(ALL_CATEGORIES);
  const search = useRef<InputRef>(null);
  const list = useTerms(open);
  const categories = useMemo(() => termCategories(list.data ?? []), [list.data]);
  const rows = useMemo(() => filterTerms(list.data ?? [], q, category), [list.data, q, category]);

  const pick = (x: Term) => {
    if (!onPick(x.text)) return void message.warning(t('diagnosis.term.tooLong'));
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    setOpen(false);
    onDismiss?.();
  };
  const label = (c: string) => c || t('diagnosis.term.uncategorized');

  const content = (
    <Flex vertical gap={10} style={{ width: 440 }} onKeyDown={onKeyDown} data-testid="term-popover">
      <Input
        ref={search}
        autoFocus
        allowClear
        prefix={<SearchOutlined style={{ color: 'rgba(0,0,0,0.35)' }} />}
        placeholder={t('diagnosis.term.search')}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onPressEnter={() => rows[0] && pick(rows[0])}
        data-testid="term-search"
      />
      {categories.length > 1 && (
        <div style={{ overflowX: 'auto' }}>
          <Segmented
            size="small"
            value={category}
            onChange={(v) => setCategory(String(v))}
            options={[{ value: ALL_CATEGORIES, label: t('common.tabs.all') }, ...categories.map((c) => ({ value: c, label: label(c) }))]}
            data-testid="term-categories"
          />
        </div>
      )}
      <div style={{ maxHeight: 280, overflowY: 'auto', minHeight: 60 }}>
        {list.isLoading ? (
          <Flex justify="center" style={{ padding: 16 }}>
            <Spin size="small" />
          </Flex>
        ) : rows.length ? (
          <Flex wrap gap={6}>
            {rows.map((x, i) => (
              <Tag
                key={x.id}
                role="button"
                tabIndex={0}
                color={q.trim() && i === 0 ? 'processing' : undefined}
                title={x.category ? `${x.category} · ${x.text}` : x.text}
                style={{ cursor: 'pointer', marginInlineEnd: 0, maxWidth: '100%', whiteSpace: 'normal', padding: '2px 8px', fontSize: 13 }}
                onClick={() => pick(x)}
                onKeyDown={(e) => e.key === 'Enter' && pick(x)}
                data-testid={`term-${x.id}`}
              >
                {x.text}
              </Tag>
            ))}
          </Flex>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={list.data?.length ? t('diagnosis.term.noMatch') : t('diagnosis.term.none')} style={{ margin: '8px 0' }} />
        )}
      </div>
      <Flex justify="space-between" align="center">
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('diagnosis.term.keys')}
        </Typography.Text>
        <Link to="/setting/diagnosisTemplate?tab=terms" style={{ fontSize: 12 }} onClick={() => setOpen(false)}>
          {t('diagnosis.term.manage')}
        </Link>
      </Flex>
    </Flex>
  );
  return (
    <Popover
      trigger="click"
      open={open && !disabled}
      onOpenChange={setOpen}
      afterOpenChange={(o) => o && search.current?.focus()}
      content={content}
      placement="bottomRight"
      title={t('diagnosis.term.pick')}
    >
      <Button size="small" icon={<TagsOutlined />} disabled={disabled} data-testid="term-picker">
        {t('diagnosis.term.pick')}
      </Button>
    </Popover>
  );
}
