// Hashes a File with SHA-256 in slices so multi-GB slides never block the page.
import { createSHA256 } from 'hash-wasm';

const CHUNK = 8 * 1024 * 1024;

self.onmessage = async (e: MessageEvent<{ file: File }>) => {
  const { file } = e.data;
  try {
    const h = await createSHA256();
    h.init();
    let last = 0;
    for (let off = 0; off < file.size; off += CHUNK) {
      h.update(new Uint8Array(await file.slice(off, off + CHUNK).arrayBuffer()));
      const now = Date.now();
      if (now - last > 200) {
        last = now;
        self.postMessage({ progress: Math.min(off + CHUNK, file.size) / file.size });
      }
    }
    self.postMessage({ done: h.digest('hex') });
  } catch (err) {
    self.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
