/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Brotli and gzip copies of the built scripts and styles, made once at build time:
 * the server sends the one the browser accepts (internal/app/web.go), so a hospital
 * link carries about a third of the bytes without compressing on every request.
 */
function precompress(): Plugin {
  return {
    name: 'telepath-precompress',
    apply: 'build',
    writeBundle(options) {
      const dir = path.join(options.dir ?? 'dist', 'assets');
      for (const name of readdirSync(dir).filter((n) => /\.(js|css|json|svg)$/.test(n))) {
        const file = path.join(dir, name);
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

// The Go server (override with TELEPATH_API for a server on another port).
const api = process.env.TELEPATH_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: { '/api': api },
  },
  preview: {
    proxy: { '/api': api },
  },
  test: {
    environment: 'jsdom',
    // Worker threads, not forks: the same isolation per file for a fifth less CPU (CI time).
    pool: 'threads',
    globals: false,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    testTimeout: 60000,
  },
});
