// The expert's verdicts on the quality of a case's slides (grades A–D), read by
// the expert's workspace and the sending hospital's case page.
import { useQuery } from '@tanstack/react-query';
import { api } from './api/client';
import { unwrap } from './api/errors';
import type { ApiData } from './api/types';

export type SlideJudgement = NonNullable<ApiData<'/api/consultation/resources/{id}/slide_judgements', 'get'>>[number];
export type SlideGrade = SlideJudgement['grade'];

export const SLIDE_GRADES: SlideGrade[] = ['A', 'B', 'C', 'D'];
export const slideGradeColor: Record<SlideGrade, string> = { A: 'green', B: 'blue', C: 'gold', D: 'red' };

export const judgementKey = (caseId: number) => ['consultation', 'slide-judgements', caseId] as const;

/** The verdicts of a case by slide id. */
export function useSlideJudgements(caseId: number) {
  return useQuery({
    queryKey: judgementKey(caseId),
    queryFn: async () => {
      const l = unwrap(await api.GET('/api/consultation/resources/{id}/slide_judgements', { params: { path: { id: caseId } } })) ?? [];
      return new Map(l.map((j) => [j.slide_id, j]));
    },
    enabled: caseId > 0,
  });
}
