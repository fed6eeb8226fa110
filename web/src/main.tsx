import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { session } from './lib/session';
import { App } from './app/App';
import './app/global.css';

// A token given in the query replaces the stored one (spec 1 §4), then leaves the URL.
const url = new URL(window.location.href);
const queryToken = url.searchParams.get('token');
if (queryToken) {
  session.adoptToken(queryToken);
  url.searchParams.delete('token');
  window.history.replaceState(null, '', url.pathname + url.search + url.hash);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
