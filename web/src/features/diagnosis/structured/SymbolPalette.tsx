// The special characters of the diagnosis editor (± × μm ° ≥ ≤ …) in a
// popover: a click or Enter inserts one where the expert was writing.
import { useState } from 'react';
import { App, Button, Empty, Flex, Popover, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSymbols } from './api';

interface Props {
  disabled?: boolean;
  /** Inserts the text; false when it does not fit. */
  onPick: (text: string) => boolean;
}

export function SymbolPalette({ disabled, onPick }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const list = useSymbols(open);
  const pick = (s: string) => {
    if (!onPick(s)) void message.warning(t('diagnosis.term.tooLong'));
  };
  return (
    <Popover
      trigger="click"
      open={open && !disabled}
      onOpenChange={setOpen}
      placement="bottomRight"
      title={t('structured.symbols')}
      content={
        <div style={{ width: 260 }} data-testid="symbol-palette" role="group" aria-label={t('structured.symbols')}>
          {list.isLoading ? (
            <Spin size="small" />
          ) : list.data?.length ? (
            <Flex wrap gap={4}>
              {list.data.map((s) => (
                <Button key={s.id} size="small" style={{ minWidth: 36 }} onClick={() => pick(s.text)} aria-label={t('structured.insertSymbol', { symbol: s.text })} data-testid={`symbol-${s.text}`}>
                  {s.text}
                </Button>
              ))}
            </Flex>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('structured.noSymbols')} />
          )}
        </div>
      }
    >
      <Button size="small" disabled={disabled} data-testid="symbol-open" aria-label={t('structured.symbols')}>
        Ω
      </Button>
    </Popover>
  );
}
