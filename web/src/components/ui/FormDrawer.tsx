import { useEffect, useRef, type ReactNode } from 'react';
import { App, Button, Drawer, Form, Space, Spin, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiError } from './useApiError';

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

interface RecordDrawerOptions<V, R, B> {
  open: boolean;
  /** The record edited, or null to create one. */
  id: number | null;
  /** The record's query (enabled while the drawer is open). */
  record: { data?: R; isLoading: boolean };
  /** The values of a new record. */
  defaults: Partial<V>;
  /** The form values of a loaded record (the record itself by default). */
  fromRecord?: (r: R) => Partial<V>;
  save: { mutate: (body: B, on: { onSuccess: () => void; onError: (e: unknown) => void }) => void; isPending: boolean };
  /** The body sent for the form values (the values themselves by default). */
  toBody?: (v: V) => B;
  onClose: () => void;
}

/**
 * The create/edit flow of a FormDrawer over one record: the form is filled when
 * the drawer opens (defaults, or the record once loaded); a save says so and
 * closes, a refusal puts the server's field errors on their fields.
 */
export function useRecordDrawer<V, R = V, B = V>({ open, id, record, defaults, fromRecord, save, toBody, onClose }: RecordDrawerOptions<V, R, B>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [form] = Form.useForm<V>();
  const fill = useRef({ defaults, fromRecord });
  fill.current = { defaults, fromRecord };
  // A new record's defaults may depend on where it is created (e.g. under a parent).
  const defaultsKey = JSON.stringify(defaults);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const { defaults: initial, fromRecord: from } = fill.current;
    if (id === null) form.setFieldsValue(initial as never);
    else if (record.data) form.setFieldsValue((from ? from(record.data) : record.data) as never);
  }, [open, id, record.data, form, defaultsKey]);

  const onFinish = (v: V) =>
    save.mutate(toBody ? toBody(v) : (v as unknown as B), {
      onSuccess: () => {
        void message.success(t('common.saved'));
        onClose();
      },
      onError: (e) => showError(e, form),
    });
  return { form, open, loading: id !== null && record.isLoading, saving: save.isPending, onClose, onFinish };
}
