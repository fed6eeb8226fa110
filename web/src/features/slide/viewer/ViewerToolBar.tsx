// The drawing tools at the left of the slide: pan, shapes, text, rulers, the
// style of new labels, and showing or hiding the labels.
import type { ReactNode } from 'react';
import { Button, Divider, Popover, Segmented, Tooltip, Typography } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LINE_WIDTHS, type Tool } from '../annotations';
import { ColorSwatches } from '../AnnotationPanel';
import { AreaPolygonIcon, AreaRectIcon, ArrowIcon, EllipseIcon, FreehandIcon, PanIcon, PolygonIcon, RectIcon, RulerIcon, TextIcon } from '../icons';
import type { AnnotationTools } from './useAnnotationTools';

const TOOL_BUTTONS: { key: string; tool: Tool | null; measure: boolean; icon: ReactNode; label: string }[] = [
  { key: 'pan', tool: null, measure: false, icon: <PanIcon />, label: 'slide.tool.pan' },
  { key: 'rect', tool: 'rect', measure: false, icon: <RectIcon />, label: 'slide.tool.rect' },
  { key: 'ellipse', tool: 'ellipse', measure: false, icon: <EllipseIcon />, label: 'slide.tool.ellipse' },
  { key: 'polygon', tool: 'polygon', measure: false, icon: <PolygonIcon />, label: 'slide.tool.polygon' },
  { key: 'freehand', tool: 'freehand', measure: false, icon: <FreehandIcon />, label: 'slide.tool.freehand' },
  { key: 'arrow', tool: 'arrow', measure: false, icon: <ArrowIcon />, label: 'slide.tool.arrow' },
  { key: 'text', tool: 'text', measure: false, icon: <TextIcon />, label: 'slide.tool.text' },
  { key: 'm-line', tool: 'line', measure: true, icon: <RulerIcon />, label: 'slide.tool.measureLine' },
  { key: 'm-rect', tool: 'rect', measure: true, icon: <AreaRectIcon />, label: 'slide.tool.measureRect' },
  { key: 'm-polygon', tool: 'polygon', measure: true, icon: <AreaPolygonIcon />, label: 'slide.tool.measurePolygon' },
];

export function ViewerToolBar({ tools, showAnn, onToggleAnn }: { tools: AnnotationTools; showAnn: boolean; onToggleAnn: () => void }) {
  const { t } = useTranslation();
  const { active, selectTool, color, setColor, lineWidth, setLineWidth } = tools;
  return (
    <div style={{ position: 'absolute', left: 12, top: 12, display: 'flex', flexDirection: 'column', gap: 4, background: 'rgba(255,255,255,0.94)', borderRadius: 8, padding: 4, boxShadow: '0 2px 8px rgba(15,23,42,0.15)' }} data-testid="tool-bar">
      {TOOL_BUTTONS.map((b, i) => {
        const on = b.tool === null ? !active : active?.tool === b.tool && active.measure === b.measure;
        return (
          <div key={b.key}>
            {i === 7 && <Divider style={{ margin: '4px 0' }} />}
            <Tooltip title={t(b.label)} placement="right">
              <Button type={on ? 'primary' : 'text'} icon={b.icon} onClick={() => selectTool(b.tool, b.measure)} aria-label={t(b.label)} data-testid={`tool-${b.key}`} />
            </Tooltip>
          </div>
        );
      })}
      <Divider style={{ margin: '4px 0' }} />
      <Popover
        placement="right"
        trigger="click"
        content={
          <div style={{ width: 220 }}>
            <Typography.Text type="secondary">{t('slide.ann.color')}</Typography.Text>
            <div style={{ margin: '6px 0 10px' }}>
              <ColorSwatches value={color} onChange={setColor} />
            </div>
            <Typography.Text type="secondary">{t('slide.ann.lineWidth')}</Typography.Text>
            <div style={{ marginTop: 6 }}>
              <Segmented size="small" value={lineWidth} onChange={(v) => setLineWidth(Number(v))} options={LINE_WIDTHS.map((w) => ({ value: w, label: String(w) }))} />
            </div>
          </div>
        }
      >
        <Tooltip title={t('slide.ann.style')} placement="right">
          <Button type="text" aria-label={t('slide.ann.style')} icon={<span style={{ display: 'inline-block', width: 16, height: 16, borderRadius: 8, background: color, border: '2px solid #fff', boxShadow: '0 0 0 1px #cbd5e1' }} />} />
        </Tooltip>
      </Popover>
      <Tooltip title={showAnn ? t('slide.ann.hide') : t('slide.ann.show')} placement="right">
        <Button type="text" icon={showAnn ? <EyeOutlined /> : <EyeInvisibleOutlined />} onClick={onToggleAnn} aria-label={showAnn ? t('slide.ann.hide') : t('slide.ann.show')} />
      </Tooltip>
    </div>
  );
}
