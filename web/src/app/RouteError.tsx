import { Navigate, useRouteError } from 'react-router';

const RELOAD_KEY = 'tp.chunkReloadAt';

/** Chunk-load failures and "Unexpected token" reload the page; other errors go to /error. */
export function RouteError() {
  const error = useRouteError();
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  const isChunk = /dynamically imported module|Importing a module script failed|Loading chunk|ChunkLoadError|Unexpected token/i.test(text);
  if (isChunk) {
    const last = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0);
    if (Date.now() - last > 10_000) {
      sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
      window.location.reload();
      return null;
    }
  }
  console.error(error);
  return <Navigate to="/error" replace />;
}
