import { App } from 'antd';
import { ExclamationCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useApiError } from './useApiError';

/** Confirmation before a destructive action (spec 1 §8 delete confirmation wording). */
export function useConfirmDelete() {
  const { modal, message } = App.useApp();
  const { t } = useTranslation();
  const showError = useApiError();
  return (run: () => Promise<unknown>, opts: { title?: string; content?: string } = {}) =>
    modal.confirm({
      title: opts.title ?? t('confirm.deleteTitle'),
      content: opts.content ?? t('confirm.deleteContent'),
      icon: <ExclamationCircleFilled style={{ color: '#d4380d' }} />,
      okText: t('common.delete'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'confirm-ok' } },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await run();
          void message.success(t('confirm.deleted'));
        } catch (e) {
          showError(e instanceof Error && e.message ? e : new Error(t('confirm.deleteFailed')));
        }
      },
      onCancel: () => void message.info(t('confirm.cancelled')),
    });
}

/** A generic yes/no confirmation for reversible actions. */
export function useConfirm() {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return (title: string, onOk: () => Promise<unknown> | void, content?: string) =>
    modal.confirm({ title, content, okText: t('common.ok'), cancelText: t('common.cancel'), onOk });
}
