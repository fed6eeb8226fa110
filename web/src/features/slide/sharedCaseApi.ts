// The public shared-case page's one call: the link's token (and code) for
// what the share shows, with share-signed slide URLs.
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { ApiData } from '../../lib/api/types';

export type SharedCase = ApiData<'/api/share/open', 'post'>;

export const openShare = async (token: string, code?: string) => unwrap(await api.POST('/api/share/open', { body: { c: token, code: code || undefined } }));
