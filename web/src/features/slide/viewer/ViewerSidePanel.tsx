// The viewer's right panel: the labels of the slide (one's own, saved as they
// change, and the others' to show or hide) or the snapshots taken.
import type { Dispatch, SetStateAction } from 'react';
import { Button, Empty, Flex, Image, Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { annotationBounds, type Annotation } from '../annotations';
import type { useServerAnnotations } from '../annotationSync';
import { AnnotationPanel } from '../AnnotationPanel';
import { OthersPanel, SaveStatus } from '../OthersPanel';
import { fitImageRect, type Viewer } from '../osd';
import type { Capture } from '../store';
import type { AnnotationTools } from './useAnnotationTools';

export type PanelTab = 'ann' | 'cap';

interface Props {
  tab: PanelTab;
  onTab: (t: PanelTab) => void;
  slideName: string;
  mpp: number;
  viewer: Viewer | null;
  ann: ReturnType<typeof useServerAnnotations>;
  tools: AnnotationTools;
  hiddenAuthors: ReadonlySet<number>;
  setHiddenAuthors: Dispatch<SetStateAction<ReadonlySet<number>>>;
  captures: Capture[];
  onRemoveCapture: (c: Capture) => void;
  caseId: number | null;
}

export function ViewerSidePanel({ tab, onTab, slideName, mpp, viewer, ann, tools, hiddenAuthors, setHiddenAuthors, captures, onRemoveCapture, caseId }: Props) {
  const { t } = useTranslation();
  const { annotations, setAnnotations, others, loadError, saveState, saveError } = ann;
  const toggleAuthor = (id: number, show: boolean) =>
    setHiddenAuthors((h) => {
      const n = new Set(h);
      if (show) n.delete(id);
      else n.add(id);
      return n;
    });
  return (
    <div style={{ width: 300, flex: 'none', borderLeft: '1px solid #e5e7eb', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <div style={{ padding: '8px 12px 0' }}>
        <Segmented block value={tab} onChange={(v) => onTab(v as PanelTab)} options={[{ value: 'ann', label: t('slide.ann.title') }, { value: 'cap', label: t('slide.captures', { count: captures.length }) }]} />
      </div>
      <div style={{ flex: 1, minHeight: 0 }}>
        {tab === 'ann' ? (
          <Flex vertical style={{ height: '100%' }}>
            <div style={{ padding: '6px 12px 0' }}>
              {loadError ? <Typography.Text type="danger" style={{ fontSize: 12 }}>{t('slide.ann.loadFailed', { message: loadError })}</Typography.Text> : <SaveStatus state={saveState} error={saveError} />}
            </div>
            <div style={{ flex: 1, minHeight: 0 }}>
              <AnnotationPanel
                list={annotations}
                selectedId={tools.selectedId}
                mpp={mpp}
                slideName={slideName}
                onSelect={tools.jumpTo}
                onEdit={(a) => tools.setForm({ edit: a })}
                onDelete={(a) => setAnnotations((l) => l.filter((x) => x.id !== a.id))}
                onImport={(got) => setAnnotations((l) => [...l, ...got])}
                onClear={() => setAnnotations([])}
              />
            </div>
            <OthersPanel others={others} hidden={hiddenAuthors} onToggle={toggleAuthor} onJump={(a: Annotation) => viewer && fitImageRect(viewer, annotationBounds(a))} />
          </Flex>
        ) : (
          <CaptureGallery captures={captures} onRemove={onRemoveCapture} caseId={caseId} />
        )}
      </div>
    </div>
  );
}

function CaptureGallery({ captures, onRemove, caseId }: { captures: Capture[]; onRemove: (c: Capture) => void; caseId: number | null }) {
  const { t } = useTranslation();
  if (!captures.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('slide.noCaptures')} style={{ marginTop: 40 }} />;
  return (
    <div style={{ padding: 12, overflow: 'auto', height: '100%' }} data-testid="captures">
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {caseId ? t('slide.capturesForCase') : t('slide.capturesForSlide')}
      </Typography.Paragraph>
      <Image.PreviewGroup>
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
          {captures.map((c) => (
            <div key={c.url + c.createdAt} style={{ position: 'relative' }}>
              <Image src={c.url} alt={c.filename} style={{ width: '100%', aspectRatio: '4/3', objectFit: 'cover', borderRadius: 4 }} />
              <Button size="small" type="text" danger style={{ position: 'absolute', right: 0, top: 0, background: 'rgba(255,255,255,0.85)' }} onClick={() => onRemove(c)} aria-label={t('common.delete')}>
                ×
              </Button>
            </div>
          ))}
        </div>
      </Image.PreviewGroup>
    </div>
  );
}
