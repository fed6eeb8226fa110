import { QueryCache, QueryClient } from '@tanstack/react-query';
import { onUnauthorized } from './api/client';
import { languageStore } from './prefs';
import { session } from './session';

/** The app's query cache: provided past sign-in (app/AppLayer), so /login does without it. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache(),
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 0 } },
});

// Server texts (messages, labels) follow the user-language header: refetch on a switch.
languageStore.subscribe(() => void queryClient.invalidateQueries());
// A session that ended leaves nothing of its user behind; a new one starts with its own user info.
onUnauthorized(() => queryClient.clear());
let token = session.get().token;
session.subscribe(() => {
  if (session.get().token === token) return;
  token = session.get().token;
  queryClient.removeQueries({ queryKey: ['auth'] });
});
