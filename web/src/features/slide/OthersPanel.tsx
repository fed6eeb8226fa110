import { useState } from 'react';
import { Badge, Button, Flex, Switch, Tooltip, Typography } from 'antd';
import { AimOutlined, CheckCircleOutlined, CloudSyncOutlined, DownOutlined, ExclamationCircleOutlined, RightOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Annotation } from './annotations';
import type { OtherSet, SaveState } from './annotationSync';

const SHOWN = 200;

/** Where the caller's labels stand: saved, waiting, saving, failed. */
export function SaveStatus({ state, error }: { state: SaveState; error: string | null }) {
  const { t } = useTranslation();
  const map = {
    idle: { icon: <CheckCircleOutlined />, color: '#6b7280', text: t('slide.ann.save.idle') },
    saved: { icon: <CheckCircleOutlined />, color: '#16a34a', text: t('slide.ann.save.saved') },
    pending: { icon: <CloudSyncOutlined />, color: '#6b7280', text: t('slide.ann.save.pending') },
    saving: { icon: <CloudSyncOutlined spin />, color: '#2563eb', text: t('slide.ann.save.saving') },
    error: { icon: <ExclamationCircleOutlined />, color: '#dc2626', text: t('slide.ann.save.error', { message: error ?? '' }) },
  }[state];
  return (
    <Typography.Text style={{ fontSize: 12, color: map.color }} ellipsis={{ tooltip: map.text }} data-testid="ann-save-state" data-state={state}>
      {map.icon} {map.text}
    </Typography.Text>
  );
}

/** The others' label sets, read-only: a visibility switch per author, a list to jump from. */
export function OthersPanel({ others, hidden, onToggle, onJump }: { others: OtherSet[]; hidden: ReadonlySet<number>; onToggle: (userId: number, show: boolean) => void; onJump: (a: Annotation) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  if (!others.length) return null;
  return (
    <div style={{ borderTop: '1px solid #e5e7eb', maxHeight: '45%', overflow: 'auto', flex: 'none' }} data-testid="ann-others">
      <Flex align="center" gap={6} style={{ padding: '8px 12px 4px' }}>
        <TeamOutlined style={{ color: '#6b7280' }} />
        <Typography.Text strong>{t('slide.ann.others')}</Typography.Text>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, padding: '0 12px', margin: '0 0 4px' }}>
        {t('slide.ann.othersHint')}
      </Typography.Paragraph>
      {others.map((o) => {
        const shown = !hidden.has(o.userId);
        const expanded = open === o.userId;
        return (
          <div key={o.userId} data-testid={`ann-author-${o.userId}`}>
            <Flex align="center" gap={8} style={{ padding: '6px 12px', cursor: 'pointer' }} onClick={() => setOpen(expanded ? null : o.userId)}>
              {expanded ? <DownOutlined style={{ fontSize: 10 }} /> : <RightOutlined style={{ fontSize: 10 }} />}
              <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>
                {o.name}
              </Typography.Text>
              <Badge count={o.labels.length} color="#94a3b8" overflowCount={9999} />
              <Tooltip title={t('slide.ann.showAuthor')}>
                <Switch size="small" checked={shown} onClick={(_, e) => e.stopPropagation()} onChange={(v) => onToggle(o.userId, v)} aria-label={t('slide.ann.showAuthor')} />
              </Tooltip>
            </Flex>
            {expanded &&
              o.labels.slice(0, SHOWN).map((a) => (
                <Flex key={a.id} align="center" gap={8} style={{ padding: '4px 12px 4px 30px', cursor: 'pointer' }} onClick={() => onJump(a)}>
                  <span style={{ width: 8, height: 8, borderRadius: 4, background: a.color, flex: 'none' }} />
                  <Typography.Text style={{ flex: 1, minWidth: 0, fontSize: 12 }} ellipsis>
                    {a.measure ? t('slide.ann.measure') : t(`slide.tool.${a.tool}`)} #{a.id}
                    {a.description ? ` · ${a.description}` : ''}
                  </Typography.Text>
                  <Button type="text" size="small" icon={<AimOutlined />} aria-label={t('slide.ann.jump')} />
                </Flex>
              ))}
          </div>
        );
      })}
    </div>
  );
}
