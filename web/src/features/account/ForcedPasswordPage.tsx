import { Button, Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { appKeys } from '../../lib/appData';
import { LanguageSwitch } from '../../components/ui/LanguageSwitch';
import { ChangePasswordForm } from './ChangePasswordForm';
import { useLogout } from '../../lib/useLogout';

/**
 * The only page of a user whose password an administrator set (or the first
 * administrator's printed one): the server refuses everything else until it is changed.
 */
export default function ForcedPasswordPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const changed = async () => {
    await qc.invalidateQueries({ queryKey: appKeys.info });
    navigate('/manage', { replace: true });
  };
  const logout = useLogout();
  return (
    <Flex vertical align="center" style={{ minHeight: '100vh', background: '#f5f8fc', padding: 24 }}>
      <Flex justify="flex-end" style={{ width: '100%' }}>
        <LanguageSwitch />
      </Flex>
      <Card style={{ width: 480, marginTop: '8vh' }} data-testid="forced-password">
        <Typography.Title level={3}>{t('account.forcedTitle')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('account.forcedHint')}</Typography.Paragraph>
        <ChangePasswordForm onChanged={() => void changed()} />
        <Button type="link" style={{ paddingLeft: 0, marginTop: 12 }} onClick={() => void logout()}>
          {t('shell.logout')}
        </Button>
      </Card>
    </Flex>
  );
}
