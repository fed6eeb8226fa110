import { useCallback, useMemo, useRef, useState, type Key, type ReactNode } from 'react';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { DataList } from '../../components/ui/list/DataList';
import type { SearchField } from '../../components/ui/list/types';
import { withParams, type ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';
import { caseKeys, countCases, fetchCases, type CaseRow } from '../../entities/case/api';
import { useCaseColumns, type CaseColumnKey } from './useCaseColumns';
import { ACTION_LABEL, CaseRowActions, toRef } from './CaseRowActions';
import { useCaseActions, type ActionName } from './useCaseActions';
import { LazyCaseDetailDrawer } from './LazyCaseDetailDrawer';

export interface CaseListConfig {
  tableId: string;
  title: string;
  subtitle?: string;
  /** Tab keys of GET /consultation/list (params.tab), shown with counts. */
  tabs?: string[];
  /** Tab keys (also of GET /consultation/list) offered in the "More views" menu after the tabs. */
  moreTabs?: string[];
  /** A single fixed view instead of tabs. */
  fixedTab?: string;
  /** Extra fixed params (e.g. charge_status). */
  fixedParams?: Record<string, string | number>;
  columns: CaseColumnKey[];
  hiddenColumns?: CaseColumnKey[];
  actions: ActionName[];
  actionsWidth?: number;
  inlineActions?: number;
  batch?: ActionName[];
  searchFields: SearchField[];
  searchPlaceholder?: string;
  toolbar?: ReactNode;
  emptyText?: string;
  /** More row buttons after the actions (e.g. the published report). */
  rowExtra?: (r: CaseRow) => ReactNode;
}

/** A case list screen: the shared list engine with case columns, row and batch actions and the detail drawer. */
export function CaseListScreen(cfg: CaseListConfig) {
  const { t } = useTranslation();
  const [openId, setOpenId] = useState<number | null>(null);
  const { run, holder } = useCaseActions({ onView: (c) => setOpenId(c.id) });
  // Rows seen on the current page, so batch dialogs can name the selected cases.
  const seen = useRef(new Map<number, CaseRow>());
  const extra = useMemo(() => ({ ...(cfg.fixedTab ? { tab: cfg.fixedTab } : {}), ...(cfg.fixedParams ?? {}) }), [cfg.fixedTab, cfg.fixedParams]);
  const fetchList = useCallback(
    async (q: ApiListQuery) => {
      const res = await fetchCases(Object.keys(extra).length ? withParams(q, extra) : q);
      for (const r of res.rows) seen.current.set(r.id, r);
      return res;
    },
    [extra],
  );
  const fetchCount = useCallback((q: CountQuery) => countCases(Object.keys(extra).length ? withParams(q, extra) : q), [extra]);
  const onAction = (a: ActionName, r: CaseRow) => run(a, [toRef(r)]);
  const columns = useCaseColumns(cfg.columns, {
    hidden: cfg.hiddenColumns,
    onOpen: (r) => setOpenId(r.id),
    actions: (r) =>
      cfg.rowExtra ? (
        <Space size={0}>
          <CaseRowActions row={r} offered={cfg.actions} inline={cfg.inlineActions} onAction={onAction} />
          {cfg.rowExtra(r)}
        </Space>
      ) : (
        <CaseRowActions row={r} offered={cfg.actions} inline={cfg.inlineActions} onAction={onAction} />
      ),
    actionsWidth: cfg.actionsWidth,
  });
  const refs = (ids: Key[]) => ids.map((id) => seen.current.get(Number(id))).filter((r): r is CaseRow => !!r).map(toRef);

  return (
    <PageContainer title={cfg.title} subtitle={cfg.subtitle}>
      <DataList<CaseRow>
        tableId={cfg.tableId}
        queryKey={caseKeys.list(cfg.tableId)}
        fetchList={fetchList}
        fetchCount={cfg.tabs ? fetchCount : undefined}
        columns={columns}
        defaultSort={{ created_at: 'desc' }}
        tabs={cfg.tabs && [...cfg.tabs.map((k) => ({ key: k, label: t(`case.tab.${k}`) })), ...(cfg.moreTabs ?? []).map((k) => ({ key: k, label: t(`case.tab.${k}`), more: true }))]}
        searchFields={cfg.searchFields}
        searchPlaceholder={cfg.searchPlaceholder ?? t('case.listSearchPlaceholder')}
        toolbar={cfg.toolbar}
        batchActions={
          cfg.batch?.length
            ? (ids, clear) =>
                cfg.batch!.map((a) => (
                  <Button key={a} onClick={() => run(a, refs(ids), { onDone: clear })} data-testid={`batch-${a}`}>
                    {t(ACTION_LABEL[a])}
                  </Button>
                ))
            : undefined
        }
        emptyText={cfg.emptyText ?? t('case.empty')}
      />
      <LazyCaseDetailDrawer id={openId} onClose={() => setOpenId(null)} onAction={(a, c) => run(a, [c], { onDone: () => setOpenId(null) })} />
      {holder}
    </PageContainer>
  );
}
