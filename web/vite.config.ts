/// <reference types="vitest/config" />
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isSignInText } from './src/locales/parts';
import { makeTheme } from './src/lib/theme';
import { DEFAULT_FONT_SIZE } from './src/lib/prefs';
import { antdStaticStyle } from './antdStyle';

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

/**
 * `locales/xx.json?texts=login`: only the texts the sign-in page uses (src/locales/parts.ts),
 * so /login does not carry the whole language; Vite's JSON plugin then makes it a module.
 */
function signInTexts(): Plugin {
  return {
    name: 'telepath-sign-in-texts',
    enforce: 'pre',
    load(id) {
      const [file, query] = id.split('?');
      if (query !== 'texts=login' || !file.endsWith('.json')) return null;
      const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      return JSON.stringify(Object.fromEntries(Object.entries(all).filter(([k]) => isSignInText(k))));
    },
  };
}

/**
 * antd's form context (imported by every Input and Checkbox) takes only FormProvider from
 * rc-field-form, but through its index, which carries the whole form engine and validator
 * (about 16 KB gzip) into any page with an input, /login among them. Point that one import
 * at the module FormProvider comes from; every other import of rc-field-form is untouched.
 */
function formContextOnly(): Plugin {
  return {
    name: 'telepath-form-context-only',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'rc-field-form' || !importer || !/antd[\\/]es[\\/]form[\\/]context\.js$/.test(importer)) return null;
      return this.resolve('rc-field-form/es/FormContext', importer, { skipSelf: true });
    },
  };
}

/**
 * The script /login needs (issue 17): the entry, the sign-in route's chunk and every chunk they
 * import statically (what the browser fetches before the page shows; the language menu and the
 * other language's texts load on use). The build fails when it grows past the budget. Target:
 * 200 KB gzip; today about 122 KB, nearly all react-dom and react-router (antd, i18next and the
 * query cache come past sign-in): lower the budget as it shrinks, never raise it without a
 * reason in the commit.
 */
const LOGIN_JS_BUDGET_KB = 125;
const SIGN_IN_ROUTE = 'src/features/auth/LoginPage.tsx';

function loginChunks(bundle: Record<string, { type: string }>): { name: string; code: string }[] {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const entry = chunks.find((c) => c.isEntry);
  const login = chunks.find((c) => c.facadeModuleId?.endsWith(SIGN_IN_ROUTE));
  if (!entry || !login) throw new Error('login budget: the entry or the sign-in route chunk is missing');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Map<string, Rollup.OutputChunk>();
  const walk = (c: Rollup.OutputChunk) => {
    if (seen.has(c.fileName)) return;
    seen.set(c.fileName, c);
    for (const i of c.imports) walk(byName.get(i)!);
  };
  walk(entry);
  walk(login);
  return [...seen.values()].map((c) => ({ name: c.fileName, code: c.code }));
}

function loginBudget(): Plugin {
  return {
    name: 'telepath-login-budget',
    apply: 'build',
    // After every generateBundle (Vite writes the preload lists into the chunks there).
    writeBundle(_, bundle) {
      const files = loginChunks(bundle);
      const bytes = files.reduce((n, f) => n + gzipSync(f.code, { level: 9 }).length, 0);
      const kb = Math.round(bytes / 102.4) / 10;
      this.info(`/login JS: ${kb} KB gzip in ${files.length} files (budget ${LOGIN_JS_BUDGET_KB} KB, target 200 KB)`);
      if (kb > LOGIN_JS_BUDGET_KB) this.error(`/login needs ${kb} KB of JS gzip, over its budget of ${LOGIN_JS_BUDGET_KB} KB (vite.config.ts LOGIN_JS_BUDGET_KB)`);
    },
  };
}

// The Go server (override with TELEPATH_API for a server on another port).
const api = process.env.TELEPATH_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/',
  plugins: [react(), signInTexts(), formContextOnly(), antdStaticStyle(makeTheme(DEFAULT_FONT_SIZE)), loginBudget(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      // antd's rc-* packages have no import-time side effects but do not say so: declared here,
      // a screen gets the parts it uses (antd's Input alone otherwise brings all of rc-field-form).
      treeshake: { moduleSideEffects: (id) => !/node_modules\/(rc-[^/]+|@rc-component\/[^/]+)\//.test(id) },
    },
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
