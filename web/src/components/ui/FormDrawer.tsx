import type { ReactNode } from 'react';
import { Button, Drawer, Form, Space, Spin, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';

interface Props<V> {
  title: string;
  open: boolean;
  form: FormInstance<V>;
  loading?: boolean;
  saving?: boolean;
  width?: number;
  onClose: () => void;
  onFinish: (values: V) => void;
  children: ReactNode;
  testId?: string;
}

/** The one create/edit pattern: a drawer with a vertical form; Enter submits, Esc closes. */
export function FormDrawer<V>({ title, open, form, loading, saving, width = 560, onClose, onFinish, children, testId }: Props<V>) {
  const { t } = useTranslation();
  return (
    <Drawer
      title={title}
      open={open}
      width={width}
      onClose={onClose}
      destroyOnHidden
      keyboard
      data-testid={testId}
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="drawer-submit">
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Spin spinning={!!loading}>
        <Form form={form} name={testId ?? 'drawer'} layout="vertical" onFinish={onFinish} scrollToFirstError aria-label={title}>
          {children}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </Form>
      </Spin>
    </Drawer>
  );
}
