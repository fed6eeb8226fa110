// "Save screenshot to case": the current view (as captured for the gallery)
// goes to the case's screenshots, from which the expert picks the report's
// images (POST /api/diagnosis/{id}/save_shots). Shown when the viewer was
// opened from a case the caller may add screenshots to.
import { useState } from 'react';
import { App, Button, Tooltip } from 'antd';
import { FileImageOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { session } from '../../lib/session';
import { languageStore } from '../../lib/prefs';
import { toApiError, unwrap } from '../../lib/api/errors';

async function postShot(caseId: number, slideId: number, blob: Blob): Promise<void> {
  const fd = new FormData();
  fd.append('file', blob, `slide-${slideId}.jpg`);
  fd.append('slide_id', String(slideId));
  const headers: Record<string, string> = { 'user-language': languageStore.get() };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`/api/diagnosis/${caseId}/save_shots`, { method: 'POST', body: fd, headers });
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => ({})), 'Save failed');
}

export function SaveShotButton({ caseId, slideId, capture }: { caseId: number; slideId: number; capture: () => Promise<Blob> }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  // The case's actions say whether the caller may save screenshots to it now.
  const allowed = useQuery({
    queryKey: ['consultation', 'detail', caseId],
    queryFn: async () => unwrap(await api.GET('/api/consultation/resources/{id}', { params: { path: { id: caseId } } })),
    select: (d) => (d.actions ?? []).includes('save_shots'),
    staleTime: 30_000,
  });
  if (!allowed.data) return null;
  const save = async () => {
    setBusy(true);
    try {
      await postShot(caseId, slideId, await capture());
      await qc.invalidateQueries({ queryKey: ['diagnosis', 'shots', caseId] });
      void message.success(t('slide.shotSaved'));
    } catch (e) {
      void message.error(e instanceof Error && e.message ? e.message : t('slide.captureFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Tooltip title={t('slide.saveShotHint')}>
      <Button size="small" icon={<FileImageOutlined />} onClick={() => void save()} loading={busy} data-testid="save-shot">
        {t('slide.saveShot')}
      </Button>
    </Tooltip>
  );
}
