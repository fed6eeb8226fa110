import { useState } from 'react';
import { Button, Checkbox, Flex, Popover, Tooltip, Typography } from 'antd';
import { HolderOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ColumnSetting } from './useColumnSettings';

interface Props {
  settings: ColumnSetting[];
  titles: Record<string, string>;
  onChange: (next: ColumnSetting[]) => void;
  onReset: () => void;
}

export function moveItem<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** Show/hide columns and drag them into order (drag is off with one column or fewer). */
export function ColumnSettings({ settings, titles, onChange, onReset }: Props) {
  const { t } = useTranslation();
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const draggable = settings.length > 1;
  const content = (
    <div style={{ width: 220 }} data-testid="column-settings">
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <Typography.Text strong>{t('list.columns')}</Typography.Text>
        <Button type="link" size="small" onClick={onReset}>
          {t('list.resetColumns')}
        </Button>
      </Flex>
      {settings.map((s, i) => (
        <Flex
          key={s.key}
          align="center"
          gap={6}
          draggable={draggable}
          onDragStart={() => setDragFrom(i)}
          onDragOver={(e) => e.preventDefault()}
          onDrop={() => {
            if (dragFrom !== null && dragFrom !== i) onChange(moveItem(settings, dragFrom, i));
            setDragFrom(null);
          }}
          style={{ padding: '4px 2px', cursor: draggable ? 'grab' : 'default', borderRadius: 4, background: dragFrom === i ? '#e6f0fa' : undefined }}
        >
          <HolderOutlined style={{ color: '#999' }} />
          <Checkbox
            checked={s.show}
            disabled={s.show && settings.filter((x) => x.show).length <= 1}
            onChange={(e) => onChange(settings.map((x) => (x.key === s.key ? { ...x, show: e.target.checked } : x)))}
          >
            {titles[s.key] ?? s.key}
          </Checkbox>
        </Flex>
      ))}
    </div>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight">
      <Tooltip title={t('list.columns')}>
        <Button icon={<SettingOutlined />} aria-label={t('list.columns')} data-testid="column-settings-button" />
      </Tooltip>
    </Popover>
  );
}
