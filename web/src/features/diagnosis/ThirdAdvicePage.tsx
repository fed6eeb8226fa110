// Third party (/third/addadvice): the special exams sites passed to us; we
// record each result, which the expert then sees on the case.
import { useState } from 'react';
import { App, Button, Segmented, Table, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { formatDateTime } from '../../lib/format';
import { useApiError } from '../../components/ui/useApiError';
import { useThirdAdvice, useThirdResult, type Advice } from './adviceApi';
import { AdviceStatusTag, MarkerResultsText, ResultModal } from './adviceParts';

export default function ThirdAdvicePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [pending, setPending] = useState(true);
  const list = useThirdAdvice(pending);
  const answer = useThirdResult();
  const [current, setCurrent] = useState<Advice | null>(null);
  const columns = [
    { key: 'consult_no', dataIndex: 'consult_no', title: t('case.field.consultNo'), width: 170, render: (x: string) => <span className="tp-mono">{x}</span> },
    { key: 'hospital_name', dataIndex: 'hospital_name', title: t('case.field.hospital'), width: 170 },
    { key: 'pathology_number', dataIndex: 'pathology_number', title: t('case.field.pathologyNumber'), width: 140 },
    { key: 'patient_name', dataIndex: 'patient_name', title: t('case.field.name'), width: 100 },
    { key: 'item', dataIndex: 'item', title: t('advice.field.item'), width: 130, render: (x: string) => t(`advice.item.${x}`) },
    { key: 'markers', dataIndex: 'markers', title: t('advice.field.markers'), render: (x: string, a: Advice) => [x, a.block && `(${a.block})`, a.remark].filter(Boolean).join(' ') },
    { key: 'transferred_at', dataIndex: 'transferred_at', title: t('advice.field.transferredAt'), width: 170, render: (x: string) => formatDateTime(x) },
    { key: 'status', dataIndex: 'status', title: t('case.field.status'), width: 100, render: (x: string) => <AdviceStatusTag status={x} /> },
    { key: 'result', dataIndex: 'result', title: t('advice.field.result'), width: 220, render: (x: string, a: Advice) => (
        <>
          {x ? <Typography.Text ellipsis={{ tooltip: x }} style={{ display: 'block' }}>{x}</Typography.Text> : '—'}
          <MarkerResultsText advice={a} />
        </>
      ),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      width: 120,
      fixed: 'right' as const,
      render: (_: unknown, a: Advice) =>
        a.status === 'transferred' && (
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setCurrent(a)} data-testid={`third-answer-${a.id}`}>
            {t('advice.third.answer')}
          </Button>
        ),
    },
  ];
  return (
    <PageContainer title={t('advice.third.title')} subtitle={t('advice.third.subtitle')}>
      <Segmented
        style={{ marginBottom: 12 }}
        value={pending ? 'pending' : 'all'}
        onChange={(v) => setPending(v === 'pending')}
        options={[
          { value: 'pending', label: t('advice.third.pending') },
          { value: 'all', label: t('advice.tab.all') },
        ]}
      />
      <Table<Advice>
        rowKey="id"
        size="middle"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        columns={columns}
        scroll={{ x: 1400 }}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        locale={{ emptyText: t('advice.third.empty') }}
      />
      <ResultModal
        open={!!current}
        title={t('advice.third.answer')}
        label={t('advice.field.result')}
        busy={answer.isPending}
        onCancel={() => setCurrent(null)}
        onOk={(result) =>
          current &&
          answer.mutateAsync({ id: current.id, result }).then(() => {
            setCurrent(null);
            void message.success(t('advice.done.answer'));
          }, showError)
        }
      />
    </PageContainer>
  );
}
