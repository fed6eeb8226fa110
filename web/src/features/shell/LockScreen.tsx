import { Avatar, Button, Form, Input, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { encryptForServer } from '../../lib/passwordCipher';
import { session } from '../../lib/session';
import { useAuthInfo } from '../../lib/appData';
import { useApiError } from '../../components/ui/useApiError';

interface Props {
  name: string;
  onLogout: () => void;
}

/**
 * Full-screen lock overlay; only the user's password (checked by the server, which
 * keeps the lock too) unlocks it. Too many wrong passwords end the session (401 → login).
 */
export function LockScreen({ name, onLogout }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ password: string }>();
  const showError = useApiError();
  const verify = useMutation({
    mutationFn: async (password: string) =>
      unwrap(await api.POST('/api/system_management/users/lock_screen_verify', { body: { password: await encryptForServer(password) } })),
    onSuccess: () => {
      session.setLocked(false);
      // What was refused while locked (423) loads again.
      void qc.invalidateQueries();
    },
    onError: (e) => {
      showError(e, form);
      form.setFieldValue('password', '');
    },
  });
  return (
    <div role="dialog" aria-modal="true" aria-label={t('lock.title')} data-testid="lock-overlay" style={{ position: 'fixed', inset: 0, zIndex: 2000, display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'radial-gradient(circle at 30% 20%, #1f6fc5 0%, #0f2a47 70%)', backdropFilter: 'blur(6px)' }}>
      <div style={{ width: 360, textAlign: 'center', color: '#fff' }}>
        <Avatar size={88} icon={<UserOutlined />} style={{ background: 'rgba(255,255,255,0.2)', marginBottom: 16 }} />
        <Typography.Title level={3} style={{ color: '#fff', margin: 0 }}>
          {name}
        </Typography.Title>
        <Typography.Paragraph style={{ color: 'rgba(255,255,255,0.75)' }}>{t('lock.hint')}</Typography.Paragraph>
        <Form form={form} onFinish={(v) => verify.mutate(v.password)}>
          <Form.Item name="password" rules={[{ required: true, message: t('password.required') }]}>
            <Input.Password size="large" autoFocus prefix={<LockOutlined />} placeholder={t('lock.password')} aria-label={t('lock.password')} />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={verify.isPending} data-testid="unlock-submit">
            {t('lock.unlock')}
          </Button>
        </Form>
        <Button type="link" style={{ color: 'rgba(255,255,255,0.8)', marginTop: 12 }} onClick={onLogout}>
          {t('lock.logout')}
        </Button>
      </div>
    </div>
  );
}

/** Locks the screen here and on the server (best effort: the overlay shows at once). */
export function useLockScreen() {
  const { data: info } = useAuthInfo();
  return () => {
    session.setLocked(true, info?.user.name || info?.user.username);
    void api.POST('/api/system_management/users/lock_screen').catch(() => undefined);
  };
}
