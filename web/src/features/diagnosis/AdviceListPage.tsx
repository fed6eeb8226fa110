// Site: the advice the experts ordered on our cases — special exams
// (/case/advices) or technical re-work (/case/technical_advices). The site
// records what it did or passes a special exam to a third party.
import { useMemo, useState } from 'react';
import { App, Button, Form, Modal, Select, Space, Typography } from 'antd';
import { CheckOutlined, DownloadOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useSearchParams } from '../../lib/searchParams';
import { parseQuery, toApiQuery } from '../../lib/list/query';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { formatDateTime } from '../../lib/format';
import { useApiError } from '../../components/ui/useApiError';
import { useConfig } from '../../lib/appData';
import { adviceKeys, countAdvice, exportAdvice, fetchAdvice, useSiteAdviceActions, useThirds, type Advice, type AdviceKind } from './adviceApi';
import { AdviceStatusTag, MarkerResultsText, ResultModal } from './adviceParts';

export function AdviceListPage({ kind }: { kind: AdviceKind }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const acts = useSiteAdviceActions();
  const [executing, setExecuting] = useState<Advice | null>(null);
  const [transferring, setTransferring] = useState<Advice | null>(null);
  // Passing an exam to a third party is a system setting (allocate_to_third).
  const toThird = !!useConfig().data?.allocate_to_third;
  const thirds = useThirds(transferring?.consult_id ?? 0, !!transferring);
  const fetchList = useMemo(() => fetchAdvice(kind), [kind]);
  const fetchCount = useMemo(() => countAdvice(kind), [kind]);
  const [sp] = useSearchParams();
  const [exporting, setExporting] = useState(false);
  const doExport = async () => {
    setExporting(true);
    try {
      const { page: _p, page_size: _s, ...q } = toApiQuery(parseQuery(sp));
      await exportAdvice(kind, q, `${t(`advice.page.${kind}`)}-${new Date().toISOString().slice(0, 10)}.xlsx`);
    } catch (e) {
      showError(e);
    } finally {
      setExporting(false);
    }
  };

  const columns = useMemo<ListColumn<Advice>[]>(
    () => [
      { key: 'consult_no', title: t('case.field.consultNo'), width: 170, sortable: true, render: (x: string) => <span className="tp-mono">{x}</span> },
      { key: 'pathology_number', title: t('case.field.pathologyNumber'), width: 140, sortable: true, filterable: true },
      { key: 'patient_name', title: t('case.field.name'), width: 110, filterable: true },
      { key: 'item', title: t('advice.field.item'), width: 130, render: (x: string) => t(`advice.item.${x}`) },
      { key: 'markers', title: t('advice.field.markers'), width: 200, filterable: true, render: (x: string, a: Advice) => [x, a.remark].filter(Boolean).join(' · ') || '—' },
      { key: 'block', title: t('advice.field.block'), width: 80, render: (x: string) => x || '—' },
      { key: 'created_by_name', title: t('advice.field.expert'), width: 110 },
      { key: 'created_at', title: t('advice.field.orderedAt'), width: 170, sortable: true, render: (x: string) => formatDateTime(x) },
      { key: 'status', title: t('case.field.status'), width: 100, render: (x: string) => <AdviceStatusTag status={x} /> },
      {
        key: 'result',
        title: t('advice.field.result'),
        width: 240,
        render: (x: string, a: Advice) => (
          <>
            {x ? <Typography.Text ellipsis={{ tooltip: x }} style={{ display: 'block' }}>{x}</Typography.Text> : a.third_name ? t('advice.withThird', { name: a.third_name }) : '—'}
            <MarkerResultsText advice={a} />
          </>
        ),
      },
      {
        key: 'actions',
        title: t('common.actions'),
        width: 190,
        fixed: 'right' as const,
        render: (_: unknown, a: Advice) =>
          a.status === 'pending' && (
            <Space size={0}>
              <Button type="link" size="small" icon={<CheckOutlined />} onClick={() => setExecuting(a)} data-testid={`advice-execute-${a.id}`}>
                {t('advice.execute')}
              </Button>
              {kind === 'special' && toThird && (
                <Button type="link" size="small" icon={<ShareAltOutlined />} onClick={() => setTransferring(a)} data-testid={`advice-transfer-${a.id}`}>
                  {t('advice.transfer')}
                </Button>
              )}
            </Space>
          ),
      },
    ],
    [t, kind, toThird],
  );

  return (
    <PageContainer title={t(`advice.page.${kind}`)} subtitle={t(`advice.page.${kind}Subtitle`)}>
      <DataList<Advice>
        tableId={`advice.${kind}`}
        queryKey={adviceKeys.list(kind)}
        fetchList={fetchList}
        fetchCount={fetchCount}
        columns={columns}
        defaultSort={{ created_at: 'desc' }}
        tabs={['pending', ...(kind === 'special' ? ['transferred'] : []), 'finished', 'all'].map((k) => ({ key: k, label: t(`advice.tab.${k}`) }))}
        searchFields={[
          { name: 'pathology_number', label: t('case.field.pathologyNumber'), type: 'text' },
          { name: 'patient_name', label: t('case.field.name'), type: 'text' },
          { name: 'created_at', label: t('advice.field.orderedAt'), type: 'dateRange' },
        ]}
        searchPlaceholder={t('advice.searchPlaceholder')}
        toolbar={
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="advice-export">
            {t('advice.export')}
          </Button>
        }
        emptyText={t('advice.empty')}
      />
      <ResultModal
        open={!!executing}
        title={t('advice.execute')}
        label={t('advice.field.executeResult')}
        busy={acts.execute.isPending}
        onCancel={() => setExecuting(null)}
        onOk={(result) =>
          executing &&
          acts.execute.mutateAsync({ advice: executing, result }).then(() => {
            setExecuting(null);
            void message.success(t('advice.done.execute'));
          }, showError)
        }
      />
      <Modal
        open={!!transferring}
        title={t('advice.transfer')}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        confirmLoading={acts.transfer.isPending}
        onCancel={() => setTransferring(null)}
        okButtonProps={{ htmlType: 'submit', form: 'advice-transfer' }}
        destroyOnHidden
      >
        <Form
          id="advice-transfer"
          layout="vertical"
          preserve={false}
          onFinish={(v: { third_id: number }) =>
            transferring &&
            acts.transfer.mutateAsync({ advice: transferring, third_id: v.third_id }).then(() => {
              setTransferring(null);
              void message.success(t('advice.done.transfer'));
            }, showError)
          }
        >
          <Form.Item name="third_id" label={t('advice.field.third')} rules={[{ required: true, message: t('advice.rule.third') }]}>
            <Select loading={thirds.isLoading} options={(thirds.data ?? []).map((p) => ({ value: p.id, label: p.name }))} notFoundContent={t('advice.noThirds')} />
          </Form.Item>
        </Form>
      </Modal>
    </PageContainer>
  );
}
