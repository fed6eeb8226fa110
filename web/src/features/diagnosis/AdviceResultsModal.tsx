// The expert records the result of each marker of an executed special exam:
// editable rows (prefilled from the ordered markers) and an interpretation.
import { AutoComplete, Button, Form, Input, Modal, Space, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Advice, AdviceResultsInput } from './adviceApi';
import { duplicateMarkers, initialRows, MAX_INTERPRETATION_LEN, MAX_MARKER_LEN, MAX_MARKER_ROWS, MAX_RESULT_LEN, RESULT_SUGGESTIONS, type MarkerResult } from './adviceMarkers';

interface Props {
  advice: Advice | null;
  busy: boolean;
  onCancel: () => void;
  onOk: (body: AdviceResultsInput) => void;
}

const resultOptions = RESULT_SUGGESTIONS.map((value) => ({ value }));

export function AdviceResultsModal({ advice, busy, onCancel, onOk }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ results: MarkerResult[]; interpretation: string }>();
  const finish = (v: { results: MarkerResult[]; interpretation?: string }) =>
    onOk({ results: v.results.map((r) => ({ marker: r.marker.trim(), result: r.result.trim() })), interpretation: (v.interpretation ?? '').trim() });
  return (
    <Modal
      open={!!advice}
      width={620}
      title={advice && `${t('advice.results.title')} · ${t(`advice.item.${advice.item}`)}`}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onCancel={onCancel}
      okButtonProps={{ htmlType: 'submit', form: 'advice-results', 'data-testid': 'advice-results-ok' } as Record<string, string>}
      destroyOnHidden
    >
      {advice && (
        <Form
          id="advice-results"
          form={form}
          layout="vertical"
          preserve={false}
          onFinish={finish}
          initialValues={{ results: initialRows(advice.marker_results, advice.markers), interpretation: advice.interpretation }}
        >
          <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
            {t('advice.results.hint')}
          </Typography.Paragraph>
          <Form.List name="results">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f, i) => (
                  <Space key={f.key} align="start" style={{ display: 'flex' }}>
                    <Form.Item
                      name={[f.name, 'marker']}
                      dependencies={fields.map((o) => ['results', o.name, 'marker'])}
                      rules={[
                        { required: true, whitespace: true, message: t('advice.results.rule.marker') },
                        { max: MAX_MARKER_LEN, message: t('advice.results.rule.tooLong', { max: MAX_MARKER_LEN }) },
                        {
                          validator: (_, v: string | undefined) =>
                            v && duplicateMarkers((form.getFieldValue('results') as MarkerResult[]).slice(0, i + 1)).some((d) => d.toUpperCase() === v.trim().toUpperCase())
                              ? Promise.reject(new Error(t('advice.results.rule.duplicate')))
                              : Promise.resolve(),
                        },
                      ]}
                    >
                      <Input style={{ width: 200 }} placeholder={t('advice.results.marker')} aria-label={`${t('advice.results.marker')} ${i + 1}`} autoFocus={i === 0} data-testid={`advice-results-marker-${i}`} />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'result']}
                      rules={[
                        { required: true, whitespace: true, message: t('advice.results.rule.result') },
                        { max: MAX_RESULT_LEN, message: t('advice.results.rule.tooLong', { max: MAX_RESULT_LEN }) },
                      ]}
                    >
                      <AutoComplete style={{ width: 260 }} options={resultOptions} placeholder={t('advice.results.resultHint')} aria-label={`${t('advice.results.result')} ${i + 1}`} data-testid={`advice-results-result-${i}`} />
                    </Form.Item>
                    {fields.length > 1 && (
                      <Button type="text" icon={<MinusCircleOutlined />} onClick={() => remove(f.name)} aria-label={`${t('advice.results.removeRow')} ${i + 1}`} />
                    )}
                  </Space>
                ))}
                {fields.length < MAX_MARKER_ROWS && (
                  <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ marker: '', result: '' })} style={{ marginBottom: 16 }} data-testid="advice-results-add">
                    {t('advice.results.addRow')}
                  </Button>
                )}
              </>
            )}
          </Form.List>
          <Form.Item name="interpretation" label={t('advice.results.interpretation')}>
            <Input.TextArea rows={3} maxLength={MAX_INTERPRETATION_LEN} showCount data-testid="advice-results-interpretation" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
