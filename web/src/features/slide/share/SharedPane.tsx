// One slide of a shared case: the viewer with the visitor's measurements and,
// when shown, the case's annotations read-only (read by the visit's ticket).
import { useState } from 'react';
import { Space, Tag, Typography } from 'antd';
import { AnnotationLayer } from '../AnnotationLayer';
import { nextId, type Annotation } from '../annotations';
import { MagnificationBar, ScaleBar } from '../controls';
import { effectiveObjective } from '../geometry';
import type { Viewer } from '../osd';
import { SlideCanvas } from '../SlideCanvas';
import type { Pane } from '../viewer/useViewerSync';
import type { SharedSlide } from './SharedSlides';
import { useSharedAnnotations } from './useSharedAnnotations';

export type MeasureTool = 'line' | 'rect' | 'polygon';

const MEASURE_COLOR = '#027AFF';
const NONE: Annotation[] = [];

interface Props {
  slide: SharedSlide;
  tool: MeasureTool | null;
  measures: Annotation[];
  onMeasures: (list: Annotation[]) => void;
  showAnn: boolean;
  onViewer: (p: Pane | null) => void;
  onEnter: () => void;
}

export function SharedPane({ slide, tool, measures, onMeasures, showAnn, onViewer, onEnter }: Props) {
  const [viewer, setViewer] = useState<Viewer | null>(null);
  const info = slide.viewer;
  const objective = effectiveObjective(info.objective, info.mpp);
  const ann = useSharedAnnotations(slide.annotations_url ?? undefined);
  const set = (v: Viewer | null) => {
    setViewer(v);
    onViewer(v ? { viewer: v, objective } : null);
  };
  return (
    <div style={{ position: 'relative', display: 'flex', flexDirection: 'column', minWidth: 0, borderRight: '1px solid #e5e7eb' }} onPointerEnter={onEnter} onWheel={onEnter} onPointerDown={onEnter} data-testid="shared-pane">
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '4px 8px', background: '#fafbfc', borderBottom: '1px solid #e5e7eb' }}>
        <Space size={4} style={{ flex: 1, minWidth: 0 }}>
          <Typography.Text strong ellipsis>{slide.title}</Typography.Text>
          {slide.stain && <Tag>{slide.stain}</Tag>}
        </Space>
        <MagnificationBar viewer={viewer} objective={objective} compact />
      </div>
      <div style={{ position: 'relative', flex: 1, minHeight: 380 }}>
        <SlideCanvas info={info} onViewer={set}>
          {(v) => (
            <>
              <AnnotationLayer
                viewer={v}
                annotations={measures}
                readonly={showAnn ? (ann.data ?? NONE) : NONE}
                selectedId={null}
                onSelect={() => undefined}
                active={tool ? { tool, measure: true } : null}
                color={MEASURE_COLOR}
                lineWidth={2}
                mpp={info.mpp}
                onFinish={(d) => onMeasures([...measures, { id: nextId(measures), tool: d.tool, points: d.points, color: MEASURE_COLOR, lineWidth: 2, description: '', measure: true }])}
              />
              {info.mpp > 0 && <ScaleBar viewer={v} mpp={info.mpp} />}
            </>
          )}
        </SlideCanvas>
      </div>
    </div>
  );
}
