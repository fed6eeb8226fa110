import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { SearchField } from '../../components/ui/list/types';
import { useCenterOptions, useHospitalOptions } from '../../entities/org/options';
import { api } from '../../lib/api/client';
import { listResult } from '../../lib/api/list';
import { ChargeStatus } from '../../entities/case/codes';

export type CaseSearchKey = 'pathology_number' | 'patient_name' | 'consult_no' | 'status' | 'expedite' | 'charge_status' | 'inspection_date' | 'created_at' | 'submitted_at' | 'hospital_id' | 'center_id' | 'expert_id';

/** Expert choices for the admin filter (users holding the expert role). */
function useExpertOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['user', 'experts', 'options'],
    queryFn: async () =>
      listResult(await api.GET('/api/user', { params: { query: { page: 1, page_size: 10000, params: JSON.stringify({ role: 'expert' }) } } })).rows.map((u) => ({ value: u.id, label: u.name || u.username })),
    enabled,
    staleTime: 60_000,
  });
}

/** The case search fields a screen asks for, in order. */
export function useCaseSearchFields(keys: CaseSearchKey[]): SearchField[] {
  const { t } = useTranslation();
  const hospitals = useHospitalOptions();
  const centers = useCenterOptions();
  const experts = useExpertOptions(keys.includes('expert_id'));
  const all: Record<CaseSearchKey, SearchField> = {
    pathology_number: { name: 'pathology_number', label: t('case.field.pathologyNumber'), type: 'text' },
    patient_name: { name: 'patient_name', label: t('case.field.name'), type: 'text' },
    consult_no: { name: 'consult_no', label: t('case.field.consultNo'), type: 'text' },
    status: {
      name: 'status',
      label: t('case.field.status'),
      type: 'select',
      multiple: true,
      options: [0, 1, 2, 4].map((s) => ({ value: s, label: t(`case.statusCode.${s}`) })),
    },
    expedite: { name: 'expedite', label: t('case.field.expedite'), type: 'select', options: [{ value: 1, label: t('case.expedite') }, { value: 0, label: t('case.normal') }] },
    charge_status: { name: 'charge_status', label: t('case.field.chargeStatus'), type: 'select', options: Object.values(ChargeStatus).map((s) => ({ value: s, label: t(`case.chargeStatus.${s}`) })) },
    inspection_date: { name: 'inspection_date', label: t('case.field.inspectionDate'), type: 'dateRange' },
    created_at: { name: 'created_at', label: t('case.field.createdAt'), type: 'dateRange' },
    submitted_at: { name: 'submitted_at', label: t('case.field.submittedAt'), type: 'dateRange' },
    hospital_id: { name: 'hospital_id', label: t('case.field.hospital'), type: 'select', multiple: true, options: hospitals.data ?? [] },
    center_id: { name: 'center_id', label: t('case.field.center'), type: 'select', multiple: true, options: centers.data ?? [] },
    expert_id: { name: 'expert_id', label: t('case.field.expert'), type: 'select', multiple: true, options: experts.data ?? [] },
  };
  return keys.map((k) => all[k]);
}
