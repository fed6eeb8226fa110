// The frozen diagnosis beside the paraffin case that followed it, and the
// frozen–paraffin concordance judgement (spec 2 §7 after_frozen_paraffin_block).
import { useEffect } from 'react';
import { App, Button, Card, Descriptions, Form, Input, Radio, Space, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { ApiData } from '../../lib/api/types';
import { formatDateTime } from '../../lib/format';
import { useApiError } from '../../components/ui/useApiError';

type Item<T> = T extends readonly (infer I)[] ? I : never;
type Appointment = Item<ApiData<'/api/frozen/appointment/lists', 'get'>>;

export const CONCORDANCES = ['concordant', 'discordant', 'deferred'] as const;
const COLOUR = { concordant: 'green', discordant: 'red', deferred: 'gold' } as const;
// Darker text on antd's light tag backgrounds: readable (WCAG AA contrast).
const TEXT = { green: { color: '#135200' }, red: { color: '#a8071a' }, gold: { color: '#613400' } } as const;

/** The concordance of a frozen case with its paraffin case, as a tag ("not compared" when empty). */
export function ConcordanceTag({ value }: { value?: string }) {
  const { t } = useTranslation();
  const c = COLOUR[value as keyof typeof COLOUR];
  if (!c) return <Typography.Text style={{ color: '#595959' }}>{t('frozen.comparison.notJudged')}</Typography.Text>;
  return (
    <Tag color={c} bordered={false} style={TEXT[c]} data-testid="concordance-tag">
      {t(`frozen.concordance.${value}`)}
    </Tag>
  );
}

/** The frozen appointment a paraffin case followed, or null. */
export function useFrozenOfParaffin(caseId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['frozen', 'paraffin', caseId],
    enabled: enabled && caseId > 0,
    queryFn: async () => {
      const r = listResult(await api.GET('/api/frozen/appointment/lists', { params: { query: { page: 1, page_size: 1, params: JSON.stringify({ paraffin_case_id: caseId }) } } }));
      return r.rows[0] ?? null;
    },
  });
}

/** The frozen diagnosis and the concordance, with the judgement form when the caller may judge. */
export function FrozenComparison({ a, onDone }: { a: Appointment; onDone?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ concordance: string; note?: string }>();
  const judge = useMutation({
    mutationFn: async (body: { concordance: string; note?: string }) =>
      unwrap(await api.POST('/api/frozen/appointment/{id}/concordance', { params: { path: { id: a.id } }, body: body as never })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['frozen'] }),
  });
  const judging = (a.actions ?? []).includes('concordance');
  const concordance = Form.useWatch('concordance', form);
  // A frozen diagnosis deferred to paraffin is a deferral, whatever the paraffin diagnosis says.
  const suggested = a.concordance || (a.frozen_verdict === 'deferred' ? 'deferred' : undefined);
  useEffect(() => form.setFieldsValue({ concordance: suggested, note: a.concordance_note }), [form, suggested, a.concordance_note]);
  const save = async () => {
    const v = await form.validateFields().catch(() => null); // the form shows what is missing
    if (!v) return;
    judge.mutate(v, {
      onSuccess: () => {
        void message.success(t('frozen.done.concordance'));
        onDone?.();
      },
      onError: (e) => showError(e, form),
    });
  };
  return (
    <>
      <Descriptions size="small" bordered column={1} styles={{ label: { width: 120, whiteSpace: 'nowrap', verticalAlign: 'top' } }}>
        <Descriptions.Item label={t('frozen.comparison.frozenDiagnosis')}>
          <Space direction="vertical" size={2}>
            {a.frozen_verdict && <Tag bordered={false}>{t(`diagnosis.frozenVerdict.${a.frozen_verdict}`)}</Tag>}
            <span data-testid="frozen-opinion">{a.frozen_opinion || '—'}</span>
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('frozen.comparison.frozenBy')}>
          {a.expert_name ?? '—'} · {formatDateTime(a.reported_at)}
        </Descriptions.Item>
        <Descriptions.Item label={t('frozen.comparison.result')}>
          <Space direction="vertical" size={2}>
            <ConcordanceTag value={a.concordance} />
            {a.concordance_note && <span>{a.concordance_note}</span>}
            {a.concordance_by && <Typography.Text style={{ color: '#595959', fontSize: 12 }}>{t('frozen.comparison.judgedBy', { name: a.concordance_by, time: formatDateTime(a.concordance_at) })}</Typography.Text>}
            {!a.paraffin_published && <Typography.Text style={{ color: '#595959', fontSize: 12 }}>{t('frozen.comparison.notYet')}</Typography.Text>}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      {judging && (
        <Form form={form} layout="vertical" requiredMark={false} style={{ marginTop: 8 }}>
          <Form.Item name="concordance" label={t('frozen.comparison.result')}>
            <Radio.Group optionType="button" buttonStyle="solid" options={CONCORDANCES.map((c) => ({ value: c, label: t(`frozen.concordance.${c}`) }))} data-testid="concordance-choice" />
          </Form.Item>
          <Form.Item
            name="note"
            label={t('frozen.comparison.note')}
            rules={concordance === 'discordant' ? [{ required: true, whitespace: true, message: t('frozen.comparison.notePlaceholder') }] : []}
          >
            <Input.TextArea rows={2} maxLength={500} placeholder={t('frozen.comparison.notePlaceholder')} data-testid="concordance-note" />
          </Form.Item>
          <Button type="primary" onClick={() => void save()} loading={judge.isPending} disabled={!concordance} data-testid="concordance-save">
            {t('frozen.comparison.save')}
          </Button>
        </Form>
      )}
    </>
  );
}

/** The workspace card of a paraffin case that followed a frozen case (nothing for other cases). */
export function FrozenComparisonCard({ caseId, enabled }: { caseId: number; enabled: boolean }) {
  const { t } = useTranslation();
  const a = useFrozenOfParaffin(caseId, enabled).data;
  if (!a) return null;
  return (
    <Card size="small" title={t('frozen.comparison.title')} style={{ marginTop: 12 }} data-testid="frozen-comparison">
      <Typography.Paragraph style={{ color: '#595959', fontSize: 12, marginBottom: 8 }}>{t('frozen.comparison.help')}</Typography.Paragraph>
      <FrozenComparison a={a} />
    </Card>
  );
}
