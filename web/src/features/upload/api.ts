import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { listResult } from '../../lib/api/list';
import type { ApiData } from '../../lib/api/types';
import type { ApiListQuery } from '../../lib/list/query';
import type { CountQuery } from '../../components/ui/list/types';

export type SlideFile = NonNullable<ApiData<'/api/slides/uploads', 'get'>>[number];
export type UploadTab = 'all' | 'uploading' | 'uploaded' | 'failed';

export const uploadKeys = { all: ['slide-uploads'] as const, free: ['free-space'] as const };

/** Slide statuses on the server: 0 uploading, 1 uploaded, 2 processing, 3 failed. */
export const SLIDE_STATUS = { uploading: 0, uploaded: 1, processing: 2, failed: 3 } as const;

const tabOf = (q: { params?: string }, fallback: UploadTab): UploadTab => {
  try {
    const t = (JSON.parse(q.params ?? '{}') as { tab?: UploadTab }).tab;
    return t ?? fallback;
  } catch {
    return fallback;
  }
};

export const fetchUploads = (fixed?: UploadTab) => async (q: ApiListQuery) => {
  const tab = fixed ?? tabOf(q, 'uploading');
  const params = JSON.stringify({ ...JSON.parse(q.params ?? '{}'), tab });
  return listResult(await api.GET('/api/slides/uploads', { params: { query: { ...q, params, tab } as never } }));
};
export const countUploads = async (q: CountQuery) => unwrap(await api.GET('/api/slides/uploads/count', { params: { query: q as never } }));

export const deleteSlide = async (id: number) => unwrap(await api.DELETE('/api/slides/{id}', { params: { path: { id } } }));

export function useFreeSpace() {
  return useQuery({ queryKey: uploadKeys.free, queryFn: async () => unwrap(await api.GET('/api/free_space')), refetchInterval: 60_000 });
}
