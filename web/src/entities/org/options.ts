// Center and hospital choices for selects (loaded once with a large page, spec 1 §9).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { listResult } from '../../lib/api/list';

const ALL = { page: 1, page_size: 10000 };

export function useCenterOptions() {
  return useQuery({
    queryKey: ['center', 'options'],
    queryFn: async () => listResult(await api.GET('/api/center/list', { params: { query: ALL } })).rows.map((c) => ({ value: c.id, label: c.name })),
    staleTime: 60_000,
  });
}

export function useHospitalOptions() {
  return useQuery({
    queryKey: ['hospital', 'options'],
    queryFn: async () => listResult(await api.GET('/api/hospital/list', { params: { query: ALL } })).rows.map((h) => ({ value: h.id, label: h.name })),
    staleTime: 60_000,
  });
}
