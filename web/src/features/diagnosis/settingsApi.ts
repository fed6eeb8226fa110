// What the diagnosis dialogs read from the configuration: the diagnosis
// settings in force for the caller (reason lists, form defaults) and the
// reagents the marker picker offers.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { ApiData } from '../../lib/api/types';

export type DiagnosisSettingValues = ApiData<'/api/config/common/setting', 'get'>['settings'];
export type ReagentOption = NonNullable<ApiData<'/api/reagent/options', 'get'>>[number];

/**
 * The diagnosis settings in force: those of centerId (a case's center), else
 * the caller's center's copy, else the global one.
 */
export function useDiagnosisSettings(enabled = true, centerId?: number | null) {
  return useQuery({
    queryKey: ['diagnosis_config', centerId ?? 0],
    queryFn: async () => unwrap(await api.GET('/api/config/common/setting', { params: { query: { center_id: centerId ?? 0 } } })).settings,
    enabled,
    staleTime: 60_000,
  });
}

/** The enabled, unexpired reagents (the special exam marker picker). */
export function useReagentOptions(enabled = true) {
  return useQuery({
    queryKey: ['reagent', 'options'],
    queryFn: async () => unwrap(await api.GET('/api/reagent/options')),
    enabled,
    staleTime: 60_000,
  });
}
