import { useEffect, useState } from 'react';
import { App, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Hospital } from '../../lib/api/types';
import { useApiError } from '../../components/ui/useApiError';
import { useCenterOptions } from '../../entities/org/options';
import { useBindCenters } from './api';

export function BindCentersModal({ hospital, onClose }: { hospital: Hospital | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [ids, setIds] = useState<number[]>([]);
  const centers = useCenterOptions();
  const bind = useBindCenters();
  const showError = useApiError();
  useEffect(() => setIds(hospital?.center_ids ?? []), [hospital]);
  const ok = () =>
    bind.mutate(
      { id: hospital!.id, center_ids: ids },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          onClose();
        },
        onError: (e) => showError(e),
      },
    );
  return (
    <Modal open={!!hospital} title={t('hospital.bindTitle', { name: hospital?.name ?? '' })} onCancel={onClose} onOk={ok} okText={t('common.save')} cancelText={t('common.cancel')} confirmLoading={bind.isPending} destroyOnHidden data-testid="bind-centers-modal">
      <Typography.Paragraph type="secondary">{t('hospital.bindHint')}</Typography.Paragraph>
      <Select mode="multiple" autoFocus style={{ width: '100%' }} value={ids} onChange={setIds} options={centers.data} loading={centers.isLoading} optionFilterProp="label" aria-label={t('hospital.table.centers')} />
    </Modal>
  );
}
