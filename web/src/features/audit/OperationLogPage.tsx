import { useState } from 'react';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OperationLog } from '../../lib/api/types';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { ListColumn } from '../../components/ui/list/types';
import { auditKeys, countOperationLog, fetchOperationLog } from './api';
import { LogDetailDrawer } from './LogDetailDrawer';
import { OutcomeTag } from './OutcomeTag';
import { VerifyButton } from './VerifyButton';
import { formatDateTime } from '../../lib/format';

const OUTCOMES = ['success', 'failure', 'denied', 'not_found'];

export default function OperationLogPage() {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState<OperationLog | null>(null);
  const columns: ListColumn<OperationLog>[] = [
    { key: 'created_at', title: t('audit.table.createdAt'), width: 180, sortable: true, render: formatDateTime },
    { key: 'username', title: t('audit.table.user'), width: 130, sortable: true, filterable: true },
    { key: 'role', title: t('audit.table.role'), width: 120, filterable: true, render: (_: string, l) => l.role_text },
    { key: 'action', title: t('audit.table.action'), width: 180, sortable: true, filterable: true, render: (a: string, l) => <Tooltip title={<span className="tp-mono">{a}</span>}>{l.action_text}</Tooltip> },
    { key: 'object_type', title: t('audit.table.objectType'), width: 120, filterable: true, render: (_: string, l) => l.object_text },
    { key: 'object_id', title: t('audit.table.objectId'), width: 100, filterable: true },
    { key: 'case_text', title: t('audit.table.case'), width: 200 },
    { key: 'outcome', title: t('audit.table.outcome'), width: 100, filterable: true, render: (o: string) => <OutcomeTag outcome={o} /> },
    { key: 'ip', title: t('audit.table.ip'), width: 140, filterable: true },
    { key: 'message', title: t('audit.table.message'), width: 240 },
    { key: 'actions', title: t('common.actions'), width: 90, fixed: 'right', ellipsis: false, render: (_: unknown, l) => <Button type="link" size="small" onClick={() => setViewing(l)} data-testid={`log-view-${l.id}`}>{t('common.view')}</Button> },
  ];
  return (
    <PageContainer title={t('audit.title')} subtitle={t('audit.subtitle')}>
      <DataList<OperationLog>
        tableId="audit.operation"
        queryKey={auditKeys.all}
        fetchList={fetchOperationLog}
        fetchCount={countOperationLog}
        columns={columns}
        defaultSort={{ created_at: 'desc' }}
        tabs={['all', 'failure', 'denied'].map((k) => ({ key: k, label: t(`audit.tabs.${k}`) }))}
        searchFields={[
          { name: 'patient', label: t('audit.search.patient'), type: 'text' },
          { name: 'username', label: t('audit.table.user'), type: 'text' },
          { name: 'action', label: t('audit.table.action'), type: 'text' },
          { name: 'outcome', label: t('audit.table.outcome'), type: 'select', options: OUTCOMES.map((o) => ({ value: o, label: t(`audit.outcome.${o}`) })) },
          { name: 'object_type', label: t('audit.table.objectType'), type: 'text' },
          { name: 'created_at', label: t('audit.table.createdAt'), type: 'dateRange' },
        ]}
        toolbar={<VerifyButton />}
        emptyText={t('audit.empty')}
        tableProps={{ onRow: (l) => ({ onDoubleClick: () => setViewing(l) }) }}
      />
      <LogDetailDrawer log={viewing} onClose={() => setViewing(null)} />
    </PageContainer>
  );
}
