// The shared case's slides as a visitor sees them: the viewer's zoom, magnification
// and scale bar; measurements of the visitor's own (kept in the page, never saved);
// the case's annotations, read-only, when the share includes them; and a split view
// of two slides moving together. Every image comes watermarked from the server.
import { useState } from 'react';
import { Button, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { AppstoreOutlined, BorderOutlined, ClearOutlined, DragOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Annotation } from '../annotations';
import { AreaPolygonIcon, AreaRectIcon, RulerIcon } from '../icons';
import { useViewerSync } from '../viewer/useViewerSync';
import { SharedPane, type MeasureTool } from './SharedPane';
import type { SharedCase } from '../sharedCaseApi';

export type SharedSlide = NonNullable<SharedCase['slides']>[number];

const TOOLS: { tool: MeasureTool | null; icon: React.ReactNode; label: string }[] = [
  { tool: null, icon: <DragOutlined />, label: 'slide.tool.pan' },
  { tool: 'line', icon: <RulerIcon />, label: 'slide.tool.measureLine' },
  { tool: 'rect', icon: <AreaRectIcon />, label: 'slide.tool.measureRect' },
  { tool: 'polygon', icon: <AreaPolygonIcon />, label: 'slide.tool.measurePolygon' },
];

export function SharedSlides({ slides }: { slides: SharedSlide[] }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [second, setSecond] = useState<number | null>(null);
  const [tool, setTool] = useState<MeasureTool | null>(null);
  const [showAnn, setShowAnn] = useState(true);
  const [measures, setMeasures] = useState<Record<number, Annotation[]>>({});
  const { setPane, lead } = useViewerSync(true);
  const slide = slides[index];
  if (!slide) return <Typography.Text type="secondary">{t('share.page.noSlides')}</Typography.Text>;
  const shown = second === null ? [slide] : [slide, slides[second]];
  const hasAnnotations = slides.some((s) => s.annotations_url);
  const pick = (i: number) => {
    setIndex(i);
    if (second === i) setSecond(null);
  };
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }} data-testid="shared-slides">
      <Space wrap size={6} style={{ padding: '6px 8px', borderBottom: '1px solid #e5e7eb' }} role="toolbar" aria-label={t('share.page.tools')}>
        <Space.Compact size="small">
          {TOOLS.map((b) => (
            <Tooltip key={b.label} title={t(b.label)}>
              <Button icon={b.icon} type={tool === b.tool ? 'primary' : 'default'} aria-pressed={tool === b.tool} aria-label={t(b.label)} onClick={() => setTool(b.tool)} data-testid={`shared-tool-${b.tool ?? 'pan'}`} />
            </Tooltip>
          ))}
          <Tooltip title={t('share.page.clearMeasures')}>
            <Button icon={<ClearOutlined />} aria-label={t('share.page.clearMeasures')} onClick={() => setMeasures({})} disabled={!Object.values(measures).some((m) => m.length)} />
          </Tooltip>
        </Space.Compact>
        {hasAnnotations && (
          <Space size={4}>
            <Switch size="small" checked={showAnn} onChange={setShowAnn} aria-label={t('share.page.annotations')} data-testid="shared-annotations" />
            <Typography.Text>{t('share.page.annotations')}</Typography.Text>
          </Space>
        )}
        {slides.length > 1 && (
          <Space size={4}>
            <AppstoreOutlined aria-hidden />
            <Select
              size="small"
              style={{ minWidth: 200 }}
              aria-label={t('share.page.split')}
              placeholder={t('share.page.split')}
              value={second ?? undefined}
              allowClear
              onChange={(v: number | undefined) => setSecond(v ?? null)}
              options={slides.map((s, i) => ({ value: i, label: s.title, disabled: i === index }))}
              data-testid="shared-split"
            />
          </Space>
        )}
        {tool && <Tag icon={<BorderOutlined />} color="blue">{tool === 'polygon' ? t('slide.hint.polygon') : t('slide.hint.drag')}</Tag>}
      </Space>
      <div style={{ flex: 1, minHeight: 0, display: 'grid', gridTemplateColumns: `repeat(${shown.length}, minmax(0, 1fr))` }}>
        {shown.map((s) => (
          <SharedPane
            key={s.id}
            slide={s}
            tool={tool}
            measures={measures[s.id] ?? []}
            onMeasures={(list) => setMeasures((m) => ({ ...m, [s.id]: list }))}
            showAnn={showAnn}
            onViewer={(p) => setPane(s.id, p)}
            onEnter={() => lead(s.id)}
          />
        ))}
      </div>
      {slides.length > 1 && (
        <Space wrap style={{ padding: 8, borderTop: '1px solid #e5e7eb' }}>
          {slides.map((s, i) => (
            <Button key={s.id} size="small" type={i === index ? 'primary' : 'default'} onClick={() => pick(i)} aria-pressed={i === index}>
              {s.title}
            </Button>
          ))}
        </Space>
      )}
    </div>
  );
}
