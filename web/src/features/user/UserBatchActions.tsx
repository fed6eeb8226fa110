import type { Key } from 'react';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '../../components/ui/useConfirm';
import { useSetUserStatus } from './api';

/** Enable or disable the selected users in one go. */
export function UserBatchActions({ ids, onDone }: { ids: Key[]; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirm();
  const setStatus = useSetUserStatus();
  const run = (status: 0 | 1) =>
    confirm(t(status ? 'user.batchEnableConfirm' : 'user.batchDisableConfirm', { count: ids.length }), async () => {
      const results = await Promise.allSettled(ids.map((id) => setStatus.mutateAsync({ id: Number(id), status })));
      const failed = results.filter((r) => r.status === 'rejected');
      if (failed.length) void message.error(t('user.batchFailed', { count: failed.length, reason: (failed[0] as PromiseRejectedResult).reason instanceof Error ? (failed[0] as PromiseRejectedResult).reason.message : '' }));
      else void message.success(t('common.done'));
      onDone();
    });
  return (
    <>
      <Button onClick={() => run(1)} data-testid="user-batch-enable">
        {t('user.batchEnable')}
      </Button>
      <Button danger onClick={() => run(0)} data-testid="user-batch-disable">
        {t('user.batchDisable')}
      </Button>
    </>
  );
}
