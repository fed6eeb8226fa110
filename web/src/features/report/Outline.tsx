// A sketch of the printed page: title, header elements and the sections in
// print order with their headings, in Chinese or English.
import { useState } from 'react';
import { Flex, Segmented, Typography } from 'antd';
import { QrcodeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Layout } from './api';
import { printed } from './layout';

export function Outline({ layout }: { layout: Layout | undefined }) {
  const { t, i18n } = useTranslation();
  const [lang, setLang] = useState<'zh' | 'en'>(i18n.language === 'en-US' ? 'en' : 'zh');
  const h = layout?.header;
  const title = (lang === 'en' ? layout?.title_en : layout?.title_zh) || '—';
  return (
    <div data-testid="report-outline">
      <Flex justify="space-between" align="center" style={{ marginBottom: 10 }}>
        <Typography.Text strong>{t('reportTemplate.outline.title')}</Typography.Text>
        <Segmented size="small" value={lang} onChange={(v) => setLang(v as 'zh' | 'en')} options={[{ value: 'zh', label: '中文' }, { value: 'en', label: 'English' }]} />
      </Flex>
      <div style={{ background: '#fff', border: '1px solid #d9dee7', boxShadow: '0 2px 8px rgba(15,42,71,0.08)', aspectRatio: '210 / 297', padding: '18px 20px', fontSize: 12, overflow: 'hidden' }}>
        <Flex justify="space-between" align="start" gap={8}>
          <div style={{ width: 36 }} />
          <Flex vertical align="center" style={{ flex: 1, textAlign: 'center' }}>
            {h?.center && <Typography.Text type="secondary" style={{ fontSize: 11 }}>{t('reportTemplate.header.center')}</Typography.Text>}
            <Typography.Text strong style={{ color: '#1f3a5f', fontSize: 14 }}>{title}</Typography.Text>
          </Flex>
          <Flex vertical align="center" style={{ width: 36, visibility: h?.verify ? 'visible' : 'hidden' }}>
            <QrcodeOutlined style={{ fontSize: 28 }} />
          </Flex>
        </Flex>
        <Flex justify="space-between" style={{ margin: '6px 0 4px', fontSize: 10, color: '#6b7280' }}>
          <span>{h?.hospital ? t('reportTemplate.header.hospital') : ''}</span>
          <span>{h?.report_no ? t('reportTemplate.header.report_no') : ''}</span>
        </Flex>
        <div style={{ borderTop: '2px solid #1f3a5f', marginBottom: 8 }} />
        <ol style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {printed(layout, lang).map((s) => (
            <li key={s.key} data-testid={`outline-${s.key}`} style={{ marginBottom: 7 }}>
              {s.heading ? (
                <span style={{ borderLeft: '3px solid #1f3a5f', paddingLeft: 6, fontWeight: 600, color: '#1f3a5f' }}>{s.heading}</span>
              ) : (
                <span style={{ display: 'block', border: '1px dashed #c8cdd4', padding: '2px 6px', color: '#6b7280' }}>{t(`reportTemplate.section.${s.key}`)}</span>
              )}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
