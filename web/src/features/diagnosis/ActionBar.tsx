// The buttons under the diagnosis form, by state (see actions.ts).
import { Button, Dropdown, Flex, Tooltip } from 'antd';
import {
  CheckOutlined,
  DeleteOutlined,
  ClockCircleOutlined,
  FileAddOutlined,
  DownOutlined,
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
import type { WorkAction } from './actions';

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
};

/** Main actions on the right; the secondary ones (return, delay, invite, unlock) as quiet buttons on the left. */
const PRIMARY: WorkAction[] = ['lock', 'publish', 'approve', 'recall', 'supplement'];
const SECONDARY: WorkAction[] = ['return', 'delay', 'invite', 'unlock'];
const KEYS: Partial<Record<WorkAction, string>> = { save: 'Ctrl + S' };

interface Props {
  actions: WorkAction[];
  busy: boolean;
  saving: boolean;
  onAction: (a: WorkAction) => void;
  supplement?: { onSave: () => void; onPublish: () => void; onCancel?: () => void; onDiscard?: () => void };
}

export function ActionBar({ actions, busy, saving, onAction, supplement }: Props) {
  const { t } = useTranslation();
  if (supplement)
    return (
      <Flex gap={8} wrap justify="flex-end" style={{ borderTop: '1px solid #eef1f5', paddingTop: 10 }} data-testid="action-bar">
        {supplement.onCancel && <Button onClick={supplement.onCancel}>{t('common.cancel')}</Button>}
        {supplement.onDiscard && (
          <Button danger icon={<DeleteOutlined />} disabled={busy} onClick={supplement.onDiscard} data-testid="action-supplement-discard">
            {t('diagnosis.action.supplementDiscard')}
          </Button>
        )}
        <Tooltip title="Ctrl + S">
          <Button icon={<SaveOutlined />} loading={saving} onClick={supplement.onSave} data-testid="action-supplement-save">
            {t('diagnosis.action.save')}
          </Button>
        </Tooltip>
        <Button type="primary" icon={<VerifiedOutlined />} disabled={busy} onClick={supplement.onPublish} data-testid="action-supplement-publish">
          {t('diagnosis.action.supplementPublish')}
        </Button>
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

