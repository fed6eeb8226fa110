import { Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { App } from 'antd';
import { FormDrawer } from '../../components/ui/FormDrawer';
import { useApiError } from '../../components/ui/useApiError';
import { useSendNotice, useUserOptions, type NoticeInput } from '../../entities/message/api';
import { useCenterOptions, useHospitalOptions } from '../../entities/org/options';
import { useRoleLabel, useRoles } from '../../lib/appData';

const TARGETS = ['all', 'role', 'center', 'hospital', 'users'] as const;

/** Writes a notice to a target (spec 2 §3 Notices). */
export function NoticeDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<NoticeInput>();
  const target = Form.useWatch('target', form);
  const send = useSendNotice();
  const showError = useApiError();
  const { message } = App.useApp();
  const centers = useCenterOptions();
  const hospitals = useHospitalOptions();
  const users = useUserOptions(open && target === 'users');
  const roles = useRoles();
  const roleLabel = useRoleLabel();
  const idOptions = target === 'center' ? centers.data : target === 'hospital' ? hospitals.data : users.data;
  return (
    <FormDrawer<NoticeInput>
      title={t('notice.new')}
      open={open}
      form={form}
      saving={send.isPending}
      onClose={onClose}
      testId="notice-drawer"
      onFinish={(v) =>
        send.mutate(v, {
          onSuccess: (n) => {
            void message.success(t('notice.sent', { count: n?.recipients ?? 0 }));
            form.resetFields();
            onClose();
          },
          onError: (e) => showError(e, form),
        })
      }
    >
      {/* Kind, level and target always hold a value (no required rule: antd would put aria-required on elements that do not take it). */}
      <Form.Item name="kind" label={t('notice.kind')} initialValue="text">
        <Radio.Group options={['text', 'urgent'].map((k) => ({ value: k, label: t(`notice.kinds.${k}`) }))} optionType="button" />
      </Form.Item>
      <Form.Item name="level" label={t('notice.level')} initialValue="normal">
        <Radio.Group options={['normal', 'important', 'very_important'].map((l) => ({ value: l, label: t(`message.level.${l}`) }))} optionType="button" data-testid="notice-level" />
      </Form.Item>
      <Form.Item name="target" label={t('notice.target')} initialValue="all">
        <Select options={TARGETS.map((k) => ({ value: k, label: t(`notice.targets.${k}`) }))} data-testid="notice-target" />
      </Form.Item>
      {target === 'role' && (
        <Form.Item name="role" label={t('notice.role')} rules={[{ validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error(t('notice.roleRequired')))) }]}>
          <Select options={(roles.data ?? []).filter((r) => r.name !== 'root').map((r) => ({ value: r.name, label: roleLabel(r.name) }))} />
        </Form.Item>
      )}
      {(target === 'center' || target === 'hospital' || target === 'users') && (
        <Form.Item name="ids" label={t(`notice.targets.${target}`)} rules={[{ validator: (_, v?: number[]) => (v?.length ? Promise.resolve() : Promise.reject(new Error(t('notice.idsRequired')))) }]}>
          <Select mode="multiple" showSearch optionFilterProp="label" options={idOptions ?? []} loading={!idOptions} data-testid="notice-ids" />
        </Form.Item>
      )}
      <Form.Item name="content" label={t('notice.content')} rules={[{ required: true, whitespace: true, message: t('notice.contentRequired') }, { max: 2000 }]}>
        <Input.TextArea rows={6} showCount maxLength={2000} data-testid="notice-content-input" />
      </Form.Item>
    </FormDrawer>
  );
}
