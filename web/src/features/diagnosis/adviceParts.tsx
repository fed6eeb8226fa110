// Small shared pieces of the advice screens: the status tag, the modal
// that asks for a result text and the recorded marker results.
import { Form, Input, Modal, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ADVICE_STATUS_COLOURS, type Advice } from './adviceApi';
import { formatMarkerResults, type MarkerResult } from './adviceMarkers';

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

/** The recorded results of a special exam as a small table, with the interpretation. */
export function MarkerResultsTable({ advice }: { advice: Advice }) {
  const { t } = useTranslation();
  return (
    <div data-testid={`advice-results-${advice.id}`}>
      <Table<MarkerResult>
        size="small"
        bordered
        pagination={false}
        rowKey="marker"
        style={{ maxWidth: 420 }}
        dataSource={advice.marker_results ?? []}
        columns={[
          { key: 'marker', dataIndex: 'marker', title: t('advice.results.marker') },
          { key: 'result', dataIndex: 'result', title: t('advice.results.result'), width: 160 },
        ]}
      />
      {advice.interpretation && (
        <Typography.Paragraph style={{ margin: '6px 0 0', whiteSpace: 'pre-wrap' }}>
          <Typography.Text type="secondary">{t('advice.results.interpretationLabel')}</Typography.Text>
          {advice.interpretation}
        </Typography.Paragraph>
      )}
    </div>
  );
}

/** The recorded results on one line, for list cells ("CK（+），CD20（-）"). */
export function MarkerResultsText({ advice }: { advice: Advice }) {
  const { i18n } = useTranslation();
  if (!advice.marker_results?.length) return null;
  const text = [formatMarkerResults(advice.marker_results, i18n.language), advice.interpretation].filter(Boolean).join(i18n.language.startsWith('zh') ? '；' : '; ');
  return (
    <Typography.Text ellipsis={{ tooltip: text }} style={{ display: 'block' }} data-testid={`advice-results-text-${advice.id}`}>
      {text}
    </Typography.Text>
  );
}
