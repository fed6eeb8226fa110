// The buttons under the diagnosis form, by state (see actions.ts).
import { Button, Dropdown, Flex, Tooltip } from 'antd';
import {
  CheckOutlined,
  DeleteOutlined,
  ClockCircleOutlined,
  FileAddOutlined,
  DownOutlined,
  EditOutlined,
  LockOutlined,
  RollbackOutlined,
  SaveOutlined,
  SendOutlined,
  TeamOutlined,
  UndoOutlined,
  UnlockOutlined,
  VerifiedOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SupplementAction, WorkAction } from './actions';

const ICONS: Record<WorkAction, React.ReactNode> = {
  lock: <LockOutlined />,
  save: <SaveOutlined />,
  toreview: <SendOutlined />,
  publish: <VerifiedOutlined />,
  return: <RollbackOutlined />,
  delay: <ClockCircleOutlined />,
  invite: <TeamOutlined />,
  unlock: <UnlockOutlined />,
  approve: <CheckOutlined />,
  reviewreturn: <RollbackOutlined />,
  reviewrecall: <UndoOutlined />,
  recall: <UndoOutlined />,
  supplement: <FileAddOutlined />,
  amend: <EditOutlined />,
};

/** Main actions on the right; the secondary ones (return, delay, invite, unlock, amend) in the menu on the left. */
const PRIMARY: WorkAction[] = ['lock', 'publish', 'approve', 'recall', 'supplement'];
const SECONDARY: WorkAction[] = ['return', 'delay', 'invite', 'unlock', 'amend'];
const KEYS: Partial<Record<WorkAction, string>> = { save: 'Ctrl + S' };

/** The supplement's buttons, in the order shown (left to right). */
const SUPPLEMENT: { a: SupplementAction; label: string; icon: React.ReactNode; primary?: boolean; danger?: boolean }[] = [
  { a: 'discard', label: 'diagnosis.action.supplementDiscard', icon: <DeleteOutlined />, danger: true },
  { a: 'save', label: 'diagnosis.action.save', icon: <SaveOutlined /> },
  { a: 'reviewrecall', label: 'diagnosis.action.reviewrecall', icon: <UndoOutlined /> },
  { a: 'toreview', label: 'diagnosis.action.toreview', icon: <SendOutlined /> },
  { a: 'reviewreturn', label: 'diagnosis.supplement.reject', icon: <RollbackOutlined />, danger: true },
  { a: 'approve', label: 'diagnosis.supplement.accept', icon: <CheckOutlined />, primary: true },
  { a: 'publish', label: 'diagnosis.action.supplementPublish', icon: <VerifiedOutlined />, primary: true },
];

interface Props {
  actions: WorkAction[];
  busy: boolean;
  saving: boolean;
  onAction: (a: WorkAction) => void;
  supplement?: { actions: SupplementAction[]; onAction: (a: SupplementAction) => void; onCancel?: () => void };
}

export function ActionBar({ actions, busy, saving, onAction, supplement }: Props) {
  const { t } = useTranslation();
  if (supplement)
    return (
      <Flex gap={8} wrap justify="flex-end" style={{ borderTop: '1px solid #eef1f5', paddingTop: 10 }} data-testid="action-bar">
        {supplement.onCancel && <Button onClick={supplement.onCancel}>{t('common.cancel')}</Button>}
        {SUPPLEMENT.filter((b) => supplement.actions.includes(b.a)).map((b) => {
          const button = (
            <Button
              key={b.a}
              type={b.primary ? 'primary' : 'default'}
              danger={b.danger}
              icon={b.icon}
              loading={b.a === 'save' ? saving : undefined}
              disabled={busy && b.a !== 'save'}
              onClick={() => supplement.onAction(b.a)}
              data-testid={`action-supplement-${b.a}`}
            >
              {t(b.label)}
            </Button>
          );
          return b.a === 'save' ? (
            <Tooltip key={b.a} title="Ctrl + S">
              {button}
            </Tooltip>
          ) : (
            button
          );
        })}
      </Flex>
    );
  if (!actions.length) return null;
  const main = actions.filter((a) => !SECONDARY.includes(a));
  const more = actions.filter((a) => SECONDARY.includes(a));
  const button = (a: WorkAction) => {
    const b = (
      <Button
        key={a}
        type={PRIMARY.includes(a) ? 'primary' : 'default'}
        danger={a === 'reviewreturn'}
        icon={ICONS[a]}
        loading={a === 'save' ? saving : undefined}
        disabled={busy && a !== 'save'}
        onClick={() => onAction(a)}
        data-testid={`action-${a}`}
      >
        {t(`diagnosis.action.${a}`)}
      </Button>
    );
    return KEYS[a] ? (
      <Tooltip key={a} title={KEYS[a]}>
        {b}
      </Tooltip>
    ) : (
      b
    );
  };
  return (
    <Flex gap={8} wrap justify="space-between" align="center" style={{ borderTop: '1px solid #eef1f5', paddingTop: 10 }} data-testid="action-bar">
      <div>
        {more.length > 0 && (
          <Dropdown
            trigger={['click']}
            disabled={busy}
            menu={{
              items: more.map((a) => ({ key: a, icon: ICONS[a], label: <span data-testid={`action-${a}`}>{t(`diagnosis.action.${a}`)}</span> })),
              onClick: ({ key }) => onAction(key as WorkAction),
            }}
          >
            <Button data-testid="action-more">
              {t('diagnosis.action.more')} <DownOutlined />
            </Button>
          </Dropdown>
        )}
      </div>
      <Flex gap={8} wrap>
        {main.map(button)}
      </Flex>
    </Flex>
  );
}

