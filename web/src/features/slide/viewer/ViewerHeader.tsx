// The viewer's top bar: back, the slide's name and size, magnification, home,
// rotation, colour adjustment, label image, snapshots, shortcuts, full screen
// and the side panel.
import { Button, Empty, Image, Popover, Slider, Space, Tooltip, Typography } from 'antd';
import {
  ArrowLeftOutlined, BgColorsOutlined, CameraOutlined, CompressOutlined, ExpandOutlined, HomeOutlined, MenuFoldOutlined,
  MenuUnfoldOutlined, QuestionCircleOutlined, SettingOutlined, TagOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ViewerInfo } from '../api';
import { AdjustPanel, MagnificationBar, RotationControl, ShortcutHelp, type Adjustments } from '../controls';
import type { Viewer } from '../osd';
import { SaveShotButton } from '../SaveShotButton';

interface Props {
  d: ViewerInfo | undefined;
  viewer: Viewer | null;
  objective: number;
  onBack: () => void;
  adjust: Adjustments;
  onAdjust: (a: Adjustments) => void;
  filter: string;
  /** The case the slide is opened from, to save a shot to. */
  caseId: number | null;
  slideId: number;
  snapshot: () => Promise<Blob>;
  capture: { run: () => void; busy: boolean; quality: number; setQuality: (q: number) => void };
  fullscreen: boolean;
  onFullscreen: () => void;
  panel: boolean;
  onPanel: () => void;
}

export function ViewerHeader({ d, viewer, objective, onBack, adjust, onAdjust, filter, caseId, slideId, snapshot, capture, fullscreen, onFullscreen, panel, onPanel }: Props) {
  const { t } = useTranslation();
  return (
    <div style={{ height: 52, flex: 'none', display: 'flex', alignItems: 'center', gap: 10, padding: '0 12px', borderBottom: '1px solid #e5e7eb', overflow: 'hidden' }}>
      <Tooltip title={t('slide.back')}>
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={onBack} aria-label={t('slide.back')} />
      </Tooltip>
      <div style={{ minWidth: 120, flex: '1 1 auto' }}>
        <Typography.Text strong ellipsis style={{ display: 'block' }} data-testid="slide-title">
          {d?.filename ?? t('slide.title')}
        </Typography.Text>
        {d && (
          <Typography.Text type="secondary" style={{ fontSize: 12, display: "block" }} ellipsis>
            {d.format.toUpperCase()} · {d.width.toLocaleString()} × {d.height.toLocaleString()} px · {d.mpp > 0 ? `${d.mpp.toFixed(4)} µm/px` : t('slide.noMpp')} · {t('slide.objective', { value: objective })}
          </Typography.Text>
        )}
      </div>
      <MagnificationBar viewer={viewer} objective={objective} />
      <Tooltip title={t('slide.home')}>
        <Button size="small" icon={<HomeOutlined />} onClick={() => viewer?.viewport.goHome()} disabled={!viewer} aria-label={t('slide.home')} />
      </Tooltip>
      <RotationControl viewer={viewer} />
      <Space.Compact size="small">
        <Popover trigger="click" placement="bottomRight" content={<AdjustPanel value={adjust} onChange={onAdjust} />} title={t('slide.adjust')}>
          <Tooltip title={t('slide.adjust')}>
            <Button icon={<BgColorsOutlined />} disabled={!d} aria-label={t('slide.adjust')} type={filter ? 'primary' : 'default'} ghost={!!filter} data-testid="adjust" />
          </Tooltip>
        </Popover>
        <Popover
          trigger="click"
          placement="bottomRight"
          title={t('slide.label')}
          content={d?.label_url ? <Image src={d.label_url} width={220} alt={t('slide.label')} /> : d?.macro_url ? <Image src={d.macro_url} width={260} alt={t('slide.label')} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('slide.noLabel')} />}
        >
          <Tooltip title={t('slide.label')}>
            <Button icon={<TagOutlined />} disabled={!d} aria-label={t('slide.label')} data-testid="label" />
          </Tooltip>
        </Popover>
      </Space.Compact>
      {caseId && viewer && <SaveShotButton caseId={caseId} slideId={slideId} capture={snapshot} />}
      <Space.Compact size="small">
        <Tooltip title={t('slide.capture')}>
          <Button icon={<CameraOutlined />} onClick={capture.run} loading={capture.busy} disabled={!viewer} data-testid="capture">
            {t('slide.captureShort')}
          </Button>
        </Tooltip>
        <Popover
          trigger="click"
          placement="bottomRight"
          content={
            <div style={{ width: 220 }}>
              <Typography.Text type="secondary">{t('slide.compression')}</Typography.Text>
              <Slider min={1} max={100} value={capture.quality} onChange={capture.setQuality} />
            </div>
          }
        >
          <Button icon={<SettingOutlined />} aria-label={t('slide.compression')} disabled={!viewer} />
        </Popover>
      </Space.Compact>
      <Space.Compact size="small">
        <Popover trigger="click" placement="bottomRight" title={t('slide.shortcuts')} content={<ShortcutHelp />}>
          <Tooltip title={t('slide.shortcuts')}>
            <Button icon={<QuestionCircleOutlined />} aria-label={t('slide.shortcuts')} data-testid="help" />
          </Tooltip>
        </Popover>
        <Tooltip title={fullscreen ? t('slide.exitFullscreen') : t('slide.fullscreen')}>
          <Button icon={fullscreen ? <CompressOutlined /> : <ExpandOutlined />} onClick={onFullscreen} aria-label={t('slide.fullscreen')} />
        </Tooltip>
        <Tooltip title={panel ? t('slide.hidePanel') : t('slide.showPanel')}>
          <Button icon={panel ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={onPanel} aria-label={t('slide.showPanel')} />
        </Tooltip>
      </Space.Compact>
    </div>
  );
}
