// Diagnosis templates in a popover: search by name or category, one click
// inserts the template's texts into the form.
import { useMemo, useState } from 'react';
import { Button, Empty, Flex, Input, List, Popover, Segmented, Tag, Typography } from 'antd';
import { SnippetsOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useTemplates, type Template } from './api';

export function filterTemplates(list: readonly Template[], q: string): Template[] {
  const s = q.trim().toLowerCase();
  if (!s) return [...list];
  return list.filter((x) => x.name.toLowerCase().includes(s) || (x.category ?? '').toLowerCase().includes(s));
}

export function TemplatePicker({ disabled, onPick }: { disabled?: boolean; onPick: (t: Template, mode: 'replace' | 'append') => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const [mode, setMode] = useState<'replace' | 'append'>('replace');
  const list = useTemplates(open);
  const rows = useMemo(() => filterTemplates(list.data ?? [], q), [list.data, q]);
  const content = (
    <Flex vertical gap={8} style={{ width: 380 }}>
      <Flex gap={8}>
        <Input.Search allowClear autoFocus placeholder={t('diagnosis.template.search')} value={q} onChange={(e) => setQ(e.target.value)} data-testid="template-search" />
        <Segmented
          size="small"
          value={mode}
          onChange={(v) => setMode(v as 'replace' | 'append')}
          options={[
            { value: 'replace', label: t('diagnosis.template.replace') },
            { value: 'append', label: t('diagnosis.template.append') },
          ]}
        />
      </Flex>
      <List
        size="small"
        loading={list.isLoading}
        dataSource={rows}
        style={{ maxHeight: 360, overflowY: 'auto' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diagnosis.template.none')} /> }}
        renderItem={(x) => (
          <List.Item
            style={{ cursor: 'pointer' }}
            onClick={() => {
              onPick(x, mode);
              setOpen(false);
            }}
            data-testid={`template-${x.id}`}
          >
            <div style={{ minWidth: 0, width: '100%' }}>
              <Flex gap={6} align="center">
                <Typography.Text strong ellipsis>
                  {x.name}
                </Typography.Text>
                {x.category && <Tag bordered={false}>{x.category}</Tag>}
                {x.public && <Tag color="blue" bordered={false}>{t('diagnosis.template.public')}</Tag>}
              </Flex>
              <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, display: 'block' }}>
                {x.opinion || x.microscopic}
              </Typography.Text>
            </div>
          </List.Item>
        )}
      />
    </Flex>
  );
  return (
    <Popover trigger="click" open={open && !disabled} onOpenChange={setOpen} content={content} placement="bottomRight" title={t('diagnosis.template.pick')}>
      <Button size="small" icon={<SnippetsOutlined />} disabled={disabled} data-testid="template-picker">
        {t('diagnosis.template.pick')}
      </Button>
    </Popover>
  );
}
