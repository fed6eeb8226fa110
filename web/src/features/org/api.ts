import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { CenterInput, HospitalInput } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';
import { centerKeys, hospitalKeys } from '../../entities/org/api';

export const fetchCenters = async (query: ApiListQuery) => listResult(await api.GET('/api/center/list', { params: { query } }));
export const countCenters = async (query: CountQuery) => unwrap(await api.GET('/api/center/count', { params: { query } }));
export const fetchHospitals = async (query: ApiListQuery) => listResult(await api.GET('/api/hospital/list', { params: { query } }));
export const countHospitals = async (query: CountQuery) => unwrap(await api.GET('/api/hospital/count', { params: { query } }));

export function useCenter(id: number | null) {
  return useQuery({
    queryKey: ['center', 'one', id],
    queryFn: async () => unwrap(await api.GET('/api/center/{id}', { params: { path: { id: id! } } })),
    enabled: id !== null,
  });
}

/** Org writes refresh both lists (hospital counts show on centers, center names on hospitals). */
function useOrgMutation<V>(fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: centerKeys.all }), qc.invalidateQueries({ queryKey: hospitalKeys.all })]),
  });
}

export const useSaveCenter = (id: number | null) =>
  useOrgMutation(async (body: CenterInput) =>
    id === null ? unwrap(await api.POST('/api/center/add', { body })) : unwrap(await api.POST('/api/center/{id}', { params: { path: { id } }, body })),
  );
export const useDeleteCenter = () => useOrgMutation(async (id: number) => unwrap(await api.DELETE('/api/center/{id}', { params: { path: { id } } })));

export const useSaveHospital = (id: number | null) =>
  useOrgMutation(async (body: HospitalInput) =>
    id === null ? unwrap(await api.POST('/api/hospital/add', { body })) : unwrap(await api.POST('/api/hospital/{id}', { params: { path: { id } }, body })),
  );
export const useDeleteHospital = () => useOrgMutation(async (id: number) => unwrap(await api.DELETE('/api/hospital/{id}', { params: { path: { id } } })));
export const useBindCenters = () =>
  useOrgMutation(async ({ id, center_ids }: { id: number; center_ids: number[] }) =>
    unwrap(await api.POST('/api/hospital/{id}/bindCenter', { params: { path: { id } }, body: { center_ids } })),
  );
