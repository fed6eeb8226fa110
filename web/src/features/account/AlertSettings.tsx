import { App, Card, Flex, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { alertSoundStore, systemAlertStore, useAlertSound, useSystemAlerts } from '../../lib/prefs';

/** Opt-in alerts for new notifications on this browser: system notifications and a sound for urgent cases. */
export function AlertSettings() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const system = useSystemAlerts();
  const sound = useAlertSound();
  const supported = typeof Notification !== 'undefined';
  const toggleSystem = async (on: boolean) => {
    if (!on) return systemAlertStore.set('off');
    const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
    if (permission !== 'granted') {
      void message.warning(t('account.alerts.denied'));
      return systemAlertStore.set('off');
    }
    systemAlertStore.set('on');
  };
  return (
    <Card title={t('account.alerts.title')} data-testid="alert-settings">
      <Flex vertical gap={16}>
        <Flex justify="space-between" align="center" gap={16}>
          <div>
            <Typography.Text strong id="alerts-system">{t('account.alerts.system')}</Typography.Text>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>{supported ? t('account.alerts.systemHint') : t('account.alerts.unsupported')}</Typography.Paragraph>
          </div>
          <Switch checked={system} disabled={!supported} onChange={(v) => void toggleSystem(v)} aria-labelledby="alerts-system" />
        </Flex>
        <Flex justify="space-between" align="center" gap={16}>
          <div>
            <Typography.Text strong id="alerts-sound">{t('account.alerts.sound')}</Typography.Text>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>{t('account.alerts.soundHint')}</Typography.Paragraph>
          </div>
          <Switch checked={sound} onChange={(v) => alertSoundStore.set(v ? 'on' : 'off')} aria-labelledby="alerts-sound" />
        </Flex>
      </Flex>
    </Card>
  );
}
