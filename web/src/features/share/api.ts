import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { ApiData } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';
import { shareKeys } from '../../entities/case/share';

export type ShareRow = NonNullable<ApiData<'/api/share/list', 'get'>>[number];

export const fetchShares = async (query: ApiListQuery) => listResult(await api.GET('/api/share/list', { params: { query } }));
export const countShares = async (query: CountQuery) => unwrap(await api.GET('/api/share/count', { params: { query } }));

export function useCancelShare() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => unwrap(await api.PATCH('/api/share/cancel/{id}', { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: shareKeys.all }),
  });
}
