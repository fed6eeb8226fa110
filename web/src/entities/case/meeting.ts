// Live meetings on a case (internal/meeting): started from the workspace,
// listed in the header, held in the slide viewer.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { ApiData } from '../../lib/api/types';

export type Meeting = ApiData<'/api/consultation/meeting/{id}', 'get'>;

export const meetingKeys = { all: ['meeting'] as const, one: (id: number) => ['meeting', id] as const };

export const startMeeting = async (consultId: number, inviteeIds: number[]) =>
  unwrap(await api.POST('/api/consultation/meeting', { body: { consult_id: consultId, invitee_ids: inviteeIds } }));

/** The viewer's address of a meeting: its first slide (or slideId), the case and the meeting. */
export const meetingPath = (m: Pick<Meeting, 'id' | 'consult_id'>, slideId: number) => `/slide/view/${slideId}?case=${m.consult_id}&meeting=${m.id}`;

export function useMyMeetings(enabled: boolean) {
  return useQuery({
    queryKey: meetingKeys.all,
    queryFn: async () => unwrap(await api.GET('/api/user/meeting')) ?? [],
    enabled,
    staleTime: 30_000,
  });
}

export const getMeeting = async (id: number) => unwrap(await api.GET('/api/consultation/meeting/{id}', { params: { path: { id } } }));
