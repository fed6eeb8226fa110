import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { session } from './lib/session';
import { App } from './app/App';
import { loadSignInTexts } from './lib/signInTexts';
import { languageStore } from './lib/prefs';
import './app/global.css';

// A token given in the query signs this tab in (spec 1 §4), then leaves the URL. When someone
// else is signed in already, the app asks first (features/auth/TokenHandoff).
const url = new URL(window.location.href);
const queryToken = url.searchParams.get('token');
if (queryToken) {
  const current = session.token();
  if (!current || current === queryToken) session.adoptToken(queryToken);
  else session.offerToken(queryToken);
  url.searchParams.delete('token');
  window.history.replaceState(null, '', url.pathname + url.search + url.hash);
}

// The first paint waits for the chosen language's sign-in texts (English is a small chunk).
void loadSignInTexts(languageStore.get()).catch(() => undefined).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
