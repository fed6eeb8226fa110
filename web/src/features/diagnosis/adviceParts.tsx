// Small shared pieces of the advice screens: the status tag and the modal
// that asks for a result text.
import { Form, Input, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ADVICE_STATUS_COLOURS } from './adviceApi';

export function AdviceStatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return <Tag color={ADVICE_STATUS_COLOURS[status] ?? 'default'}>{t(`advice.status.${status}`)}</Tag>;
}

interface ResultModalProps {
  open: boolean;
  title: string;
  label: string;
  busy: boolean;
  onCancel: () => void;
  onOk: (result: string) => void;
}

/** Asks for the result of executed advice (site) or of a third party's exam. */
export function ResultModal({ open, title, label, busy, onCancel, onOk }: ResultModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={title}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onCancel={onCancel}
      okButtonProps={{ htmlType: 'submit', form: 'advice-result', 'data-testid': 'advice-result-ok' } as Record<string, string>}
      destroyOnHidden
    >
      <Form id="advice-result" layout="vertical" preserve={false} onFinish={(v: { result: string }) => onOk(v.result.trim())}>
        <Form.Item name="result" label={label} rules={[{ required: true, whitespace: true, message: t('advice.rule.result') }]}>
          <Input.TextArea rows={5} maxLength={2000} showCount autoFocus data-testid="advice-result" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
