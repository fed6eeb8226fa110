import { useState } from 'react';
import { App, Button, Checkbox, Modal, Tooltip, Typography } from 'antd';
import { AppstoreOutlined, FileImageOutlined, WarningOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useSearchParams } from '../../lib/searchParams';
import { useTranslation } from 'react-i18next';
import { useCaseSlides, useViewerInfo, type CaseSlide } from './api';

export const MIN_SPLIT = 2;
export const MAX_SPLIT = 4;
export const splitCountOk = (n: number) => n >= MIN_SPLIT && n <= MAX_SPLIT;

function Thumb({ slide, active, onOpen }: { slide: CaseSlide; active: boolean; onOpen: () => void }) {
  const viewable = slide.viewable === 1;
  const info = useViewerInfo(viewable ? slide.id : null);
  return (
    <Tooltip title={viewable ? slide.filename : `${slide.filename} — ${slide.error}`}>
      <button
        type="button"
        onClick={onOpen}
        data-testid={`strip-${slide.id}`}
        style={{ flex: 'none', width: 112, padding: 4, border: active ? '2px solid #027AFF' : '2px solid transparent', borderRadius: 6, background: active ? '#eaf3ff' : '#fff', cursor: 'pointer', textAlign: 'left' }}
      >
        <div style={{ height: 58, background: '#f3f4f6', borderRadius: 4, display: 'grid', placeItems: 'center', overflow: 'hidden' }}>
          {info.data?.thumbnail_url ? <img src={info.data.thumbnail_url} alt="" style={{ maxWidth: '100%', maxHeight: 58 }} /> : viewable ? <FileImageOutlined style={{ color: '#9ca3af', fontSize: 20 }} /> : <WarningOutlined style={{ color: '#d97706', fontSize: 20 }} />}
        </div>
        <Typography.Text ellipsis style={{ fontSize: 12, display: 'block', marginTop: 2, width: 100 }}>
          {slide.ranse ? `${slide.ranse} · ` : ''}
          {slide.filename}
        </Typography.Text>
      </button>
    </Tooltip>
  );
}

/** The case's other slides, to switch between them or compare 2 to 4 side by side. */
export function SlideStrip({ caseId, currentId }: { caseId: number; currentId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const meeting = useSearchParams()[0].get('meeting');
  const slides = useCaseSlides(caseId);
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState<number[]>([]);
  const list = slides.data ?? [];
  if (slides.isLoading || list.length === 0) return null;
  const openCompare = () => {
    if (!splitCountOk(picked.length)) return void message.warning(t('slide.splitCount'));
    navigate(`/slide/compare?ids=${picked.join(',')}&case=${caseId}${meeting ? `&meeting=${meeting}` : ''}`);
  };
  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center', padding: '6px 10px', borderTop: '1px solid #e5e7eb', background: '#fafbfc', overflowX: 'auto' }} data-testid="slide-strip">
      {list.map((s) => (
        <Thumb key={s.id} slide={s} active={s.id === currentId} onOpen={() => s.id !== currentId && navigate(`/slide/view/${s.id}?case=${caseId}${meeting ? `&meeting=${meeting}` : ''}`, { replace: true })} />
      ))}
      {list.length >= MIN_SPLIT && (
        <Button
          icon={<AppstoreOutlined />}
          style={{ flex: 'none', marginLeft: 8 }}
          onClick={() => {
            setPicked(list.filter((s) => s.viewable === 1).slice(0, MAX_SPLIT).map((s) => s.id));
            setPicking(true);
          }}
        >
          {t('slide.split')}
        </Button>
      )}
      <Modal open={picking} title={t('slide.splitPick')} onCancel={() => setPicking(false)} onOk={openCompare} okText={t('slide.splitOpen')} cancelText={t('common.cancel')} zIndex={3000}>
        <Typography.Paragraph type="secondary">{t('slide.splitCount')}</Typography.Paragraph>
        <Checkbox.Group value={picked} onChange={(v) => setPicked(v as number[])} style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
          {list.map((s) => (
            <Checkbox key={s.id} value={s.id} disabled={s.viewable !== 1}>
              {s.filename} {s.viewable !== 1 && <Typography.Text type="secondary">({s.error})</Typography.Text>}
            </Checkbox>
          ))}
        </Checkbox.Group>
      </Modal>
    </div>
  );
}
