// The buttons under the diagnosis form: one per action the server lists,
// drawn as the action registry says (actionRegistry.tsx).
import { Button, Dropdown, Flex, Tooltip } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { reportSpec, supplementSpec, type SupplementAction, type WorkAction } from './actionRegistry';

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
        {supplement.actions.map((a) => {
          const b = supplementSpec(a);
          const button = (
            <Button
              key={a}
              type={b.place === 'primary' ? 'primary' : 'default'}
              danger={b.danger}
              icon={b.icon}
              loading={a === 'save' ? saving : undefined}
              disabled={busy && a !== 'save'}
              onClick={() => supplement.onAction(a)}
              data-testid={`action-supplement-${a}`}
            >
              {t(b.label)}
            </Button>
          );
          return b.shortcut ? (
            <Tooltip key={a} title={b.shortcut}>
              {button}
            </Tooltip>
          ) : (
            button
          );
        })}
      </Flex>
    );
  if (!actions.length) return null;
  const main = actions.filter((a) => reportSpec(a).place !== 'secondary');
  const more = actions.filter((a) => reportSpec(a).place === 'secondary');
  const button = (a: WorkAction) => {
    const spec = reportSpec(a);
    const b = (
      <Button
        key={a}
        type={spec.place === 'primary' ? 'primary' : 'default'}
        danger={spec.danger}
        icon={spec.icon}
        loading={a === 'save' ? saving : undefined}
        disabled={busy && a !== 'save'}
        onClick={() => onAction(a)}
        data-testid={`action-${a}`}
      >
        {t(spec.label)}
      </Button>
    );
    return spec.shortcut ? (
      <Tooltip key={a} title={spec.shortcut}>
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
              items: more.map((a) => ({ key: a, icon: reportSpec(a).icon, label: <span data-testid={`action-${a}`}>{t(reportSpec(a).label)}</span> })),
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

