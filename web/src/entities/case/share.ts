// Sharing a case by link (internal/share): the workspace creates a share,
// the owner's list (features/share) shows and cancels them.
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { ApiBody, ApiData } from '../../lib/api/types';

export type ShareInput = ApiBody<'/api/share', 'post'>;
export type CreatedShare = ApiData<'/api/share', 'post'>;

export const shareKeys = { all: ['share'] as const };

export const createShare = async (body: ShareInput) => unwrap(await api.POST('/api/share', { body }));

/** The public page's address of a share. */
export const shareLink = (token: string) => `${window.location.origin}/shareCase?c=${encodeURIComponent(token)}`;
