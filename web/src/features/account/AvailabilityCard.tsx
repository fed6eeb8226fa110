// The expert's availability for new cases: available, or away with an
// optional note and return day. The allocator's assign dialog shows it.
import { App, Button, Card, DatePicker, Flex, Form, Input, Switch, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { useApiError } from '../../components/ui/useApiError';

const key = ['user', 'availability'] as const;

export function AvailabilityCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const qc = useQueryClient();
  const state = useQuery({ queryKey: key, queryFn: async () => unwrap(await api.GET('/api/user/diagnosis/status')) });
  const save = useMutation({
    mutationFn: async (body: { away: boolean; away_note: string; away_until: string }) => unwrap(await api.PATCH('/api/user/diagnosis/status', { body })),
    // The allocator's expert lists carry the state.
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: key }), qc.invalidateQueries({ queryKey: ['consultation', 'experts'] })]),
  });
  const away = state.data?.away ?? false;
  const [form] = Form.useForm<{ away_note?: string; away_until?: Dayjs | null }>();

  const submit = async (nextAway: boolean, v: { away_note?: string; away_until?: Dayjs | null } = {}) => {
    try {
      await save.mutateAsync({ away: nextAway, away_note: nextAway ? (v.away_note ?? '') : '', away_until: nextAway && v.away_until ? v.away_until.format('YYYY-MM-DD') : '' });
      void message.success(t(nextAway ? 'account.availability.savedAway' : 'account.availability.savedAvailable'));
    } catch (e) {
      showError(e);
    }
  };

  return (
    <Card title={t('account.availability.title')} data-testid="account-availability">
      <Typography.Paragraph type="secondary">{t('account.availability.note')}</Typography.Paragraph>
      <Flex gap={12} align="center" style={{ marginBottom: away ? 16 : 0 }}>
        <Switch
          checked={!away}
          loading={save.isPending || state.isLoading}
          onChange={(available) => void submit(!available)}
          aria-label={t('account.availability.switch')}
          data-testid="availability-switch"
        />
        <Typography.Text strong>{away ? t('account.availability.away') : t('account.availability.available')}</Typography.Text>
      </Flex>
      {away && (
        <Form
          form={form}
          layout="inline"
          initialValues={{ away_note: state.data?.away_note ?? '', away_until: state.data?.away_until ? dayjs(state.data.away_until) : null }}
        >
          <Form.Item name="away_note" label={t('account.availability.awayNote')}>
            <Input maxLength={200} style={{ width: 260 }} placeholder={t('account.availability.awayNotePlaceholder')} data-testid="availability-note" />
          </Form.Item>
          <Form.Item name="away_until" label={t('account.availability.awayUntil')}>
            <DatePicker disabledDate={(d) => d.isBefore(dayjs(), 'day')} data-testid="availability-until" />
          </Form.Item>
          <Form.Item>
            <Button loading={save.isPending} onClick={() => void submit(true, form.getFieldsValue())} data-testid="availability-save">
              {t('common.save')}
            </Button>
          </Form.Item>
        </Form>
      )}
    </Card>
  );
}
