import { Button, Popover, Slider, Space, Tooltip, Typography } from 'antd';
import { RotateLeftOutlined, RotateRightOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatMagnification, scaleBar, zoomForMagnification } from './geometry';
import { imageToViewportFactor, imageZoom, useViewportTick, type Viewer } from './osd';

export const MAGNIFICATIONS = [1, 2, 4, 10, 20, 40];

export function zoomToMagnification(v: Viewer, m: number, objective: number, immediately = false) {
  v.viewport.zoomTo(zoomForMagnification(m, objective, imageToViewportFactor(v)), undefined, immediately);
}

/** 1×…40× buttons relative to the scan's objective and the live magnification. */
export function MagnificationBar({ viewer, objective, compact }: { viewer: Viewer | null; objective: number; compact?: boolean }) {
  const { t } = useTranslation();
  useViewportTick(viewer);
  const current = viewer ? imageZoom(viewer) * objective : 0;
  return (
    <Space.Compact size="small">
      {!compact &&
        MAGNIFICATIONS.map((m) => (
          <Button key={m} disabled={!viewer} onClick={() => viewer && zoomToMagnification(viewer, m, objective)} type={Math.abs(current - m) < 0.05 * m ? 'primary' : 'default'} data-testid={`mag-${m}`}>
            {m}×
          </Button>
        ))}
      <Tooltip title={t('slide.currentMagnification')}>
        <Button style={{ minWidth: 64, fontVariantNumeric: 'tabular-nums', fontWeight: 600, pointerEvents: 'none' }} data-testid="mag-current">
          {viewer ? formatMagnification(current) : '—'}
        </Button>
      </Tooltip>
    </Space.Compact>
  );
}

/** A scale bar in µm or mm computed from the scan's microns per pixel. */
export function ScaleBar({ viewer, mpp }: { viewer: Viewer; mpp: number }) {
  const { t } = useTranslation();
  useViewportTick(viewer);
  const bar = mpp > 0 ? scaleBar(mpp / imageZoom(viewer), 140) : null;
  return (
    <div
      style={{ position: 'absolute', left: 12, bottom: 12, padding: '4px 8px 6px', background: 'rgba(255,255,255,0.88)', borderRadius: 4, font: '12px system-ui, sans-serif', color: '#1f2937', pointerEvents: 'none', boxShadow: '0 1px 3px rgba(0,0,0,0.15)' }}
      data-testid="scale-bar"
    >
      {bar ? (
        <>
          <div style={{ textAlign: 'center', marginBottom: 2, fontVariantNumeric: 'tabular-nums' }}>{bar.label}</div>
          <div style={{ width: bar.px, height: 6, border: '2px solid #1f2937', borderTop: 'none' }} />
        </>
      ) : (
        t('slide.noScale')
      )}
    </div>
  );
}

/** ±90° buttons and a fine rotation slider (1° steps, spec 1 §9). */
export function RotationControl({ viewer }: { viewer: Viewer | null }) {
  const { t } = useTranslation();
  useViewportTick(viewer);
  const rot = viewer ? Math.round(viewer.viewport.getRotation()) : 0;
  const norm = ((((rot + 180) % 360) + 360) % 360) - 180;
  const set = (deg: number) => viewer?.viewport.setRotation(deg);
  return (
    <Space.Compact size="small">
      <Tooltip title={t('slide.rotateLeft')}>
        <Button icon={<RotateLeftOutlined />} onClick={() => set(rot - 90)} disabled={!viewer} aria-label={t('slide.rotateLeft')} />
      </Tooltip>
      <Popover
        trigger="click"
        content={
          <div style={{ width: 240 }}>
            <Typography.Text type="secondary">{t('slide.fineRotation')}</Typography.Text>
            <Slider min={-180} max={180} step={1} value={norm} onChange={(v) => viewer?.viewport.setRotation(v, true)} tooltip={{ formatter: (v) => `${v}°` }} />
            <Button size="small" icon={<UndoOutlined />} onClick={() => set(0)}>
              {t('slide.resetRotation')}
            </Button>
          </div>
        }
      >
        <Button style={{ minWidth: 56, fontVariantNumeric: 'tabular-nums' }} disabled={!viewer} data-testid="rotation">
          {norm}°
        </Button>
      </Popover>
      <Tooltip title={t('slide.rotateRight')}>
        <Button icon={<RotateRightOutlined />} onClick={() => set(rot + 90)} disabled={!viewer} aria-label={t('slide.rotateRight')} />
      </Tooltip>
    </Space.Compact>
  );
}

export interface Adjustments {
  brightness: number;
  contrast: number;
  saturate: number;
  gamma: number;
}
export const DEFAULT_ADJUST: Adjustments = { brightness: 100, contrast: 100, saturate: 100, gamma: 1 };

/** The CSS filter for the tiles; gamma goes through an SVG filter in the page. */
export function cssFilter(a: Adjustments, gammaId?: string): string {
  const parts: string[] = [];
  if (a.brightness !== 100) parts.push(`brightness(${a.brightness}%)`);
  if (a.contrast !== 100) parts.push(`contrast(${a.contrast}%)`);
  if (a.saturate !== 100) parts.push(`saturate(${a.saturate}%)`);
  if (gammaId && a.gamma !== 1) parts.push(`url(#${gammaId})`);
  return parts.join(' ');
}

export function GammaFilter({ id, gamma }: { id: string; gamma: number }) {
  const e = 1 / gamma;
  return (
    <svg width="0" height="0" style={{ position: 'absolute' }} aria-hidden>
      <filter id={id} colorInterpolationFilters="sRGB">
        <feComponentTransfer>
          <feFuncR type="gamma" exponent={e} />
          <feFuncG type="gamma" exponent={e} />
          <feFuncB type="gamma" exponent={e} />
        </feComponentTransfer>
      </filter>
    </svg>
  );
}

/** Brightness, contrast, saturation (0–100, default 100, spec 1 §5) and gamma. */
export function AdjustPanel({ value, onChange }: { value: Adjustments; onChange: (a: Adjustments) => void }) {
  const { t } = useTranslation();
  const row = (key: keyof Adjustments, label: string, min: number, max: number, step: number) => (
    <div key={key}>
      <Typography.Text>{label}</Typography.Text>
      <Slider min={min} max={max} step={step} value={value[key]} onChange={(v) => onChange({ ...value, [key]: v })} data-testid={`adjust-${key}`} />
    </div>
  );
  return (
    <div style={{ width: 260 }}>
      {row('brightness', t('slide.brightness'), 0, 100, 1)}
      {row('contrast', t('slide.contrast'), 0, 100, 1)}
      {row('saturate', t('slide.saturation'), 0, 100, 1)}
      {row('gamma', t('slide.gamma'), 0.2, 3, 0.05)}
      <Button size="small" icon={<UndoOutlined />} onClick={() => onChange(DEFAULT_ADJUST)}>
        {t('slide.resetAdjust')}
      </Button>
    </div>
  );
}

export const SHORTCUTS: [string, string][] = [
  ['+ / −', 'slide.key.zoom'],
  ['← ↑ → ↓', 'slide.key.pan'],
  ['R / Shift+R', 'slide.key.rotate'],
  ['0', 'slide.key.home'],
  ['F', 'slide.key.fullscreen'],
  ['M', 'slide.key.measure'],
  ['Esc', 'slide.key.cancel'],
  ['Enter / Backspace', 'slide.key.polygon'],
];

export function ShortcutHelp() {
  const { t } = useTranslation();
  return (
    <table style={{ borderSpacing: '12px 4px', marginLeft: -12 }} data-testid="shortcut-help">
      <tbody>
        {SHORTCUTS.map(([k, label]) => (
          <tr key={k}>
            <td>
              <Typography.Text keyboard>{k}</Typography.Text>
            </td>
            <td>{t(label)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
