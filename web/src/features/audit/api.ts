import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';

export const auditKeys = { all: ['audit', 'operation'] as const };

/**
 * The log's tabs are outcome filters; the list endpoint takes them as `outcome`
 * (it does not accept a `tab` param), so the tab is translated here.
 */
export function tabToOutcome(query: ApiListQuery): ApiListQuery {
  if (!query.params) return query;
  const { tab, ...params } = JSON.parse(query.params) as Record<string, unknown>;
  if (tab === 'failure' || tab === 'denied') params.outcome = tab;
  const { params: _p, ...rest } = query;
  return Object.keys(params).length ? { ...rest, params: JSON.stringify(params) } : rest;
}

export const fetchOperationLog = async (query: ApiListQuery) => listResult(await api.GET('/api/log/operation', { params: { query: tabToOutcome(query) } }));
export const countOperationLog = async (query: CountQuery) => unwrap(await api.GET('/api/log/operation/count', { params: { query } }));
export const verifyOperationLog = async () => unwrap(await api.GET('/api/audit/verify'));
