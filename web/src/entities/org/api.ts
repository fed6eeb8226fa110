// What several screens know about the organisation: centers and hospitals (sites).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';

export const centerKeys = { all: ['center'] as const };
export const hospitalKeys = { all: ['hospital'] as const, one: (id: number) => ['hospital', 'one', id] as const };

/** One hospital with its settings and centers. */
export function useHospital(id: number | null | undefined) {
  return useQuery({
    queryKey: hospitalKeys.one(id ?? 0),
    queryFn: async () => unwrap(await api.GET('/api/hospital/{id}', { params: { path: { id: id! } } })),
    enabled: !!id,
    staleTime: 60_000,
  });
}
