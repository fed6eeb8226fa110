import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import type { ThemeConfig } from 'antd';

/**
 * antd's styles for the default theme as a CSS file made at build time (issue 17).
 *
 * antd writes its styles in JavaScript: the first time each component renders, it builds that
 * component's CSS from the theme's tokens and inserts a <style> tag, and the browser recomputes
 * the page's style after each. On the first signed-in screen (menu, tabs, table, buttons…) that was
 * the largest single cost between sign-in and the first row. Here the build renders every antd
 * component the app imports once, in Node, with the theme a user has by default, and keeps what antd
 * generated (@ant-design/cssinjs extractStyle). The CSS ends with antd's own map of the styles it
 * holds: in the browser antd reads that map before its first style and skips building and inserting
 * those. Another font size or reduced motion is another theme, whose styles antd builds at run time
 * as before; so does any component not rendered here.
 *
 * `import 'virtual:antd.css'` (app/AppLayer.tsx): Vite loads the file with that chunk, before the
 * chunk runs. Outside `vite build` (dev server, Vitest) the module is empty.
 */
export const ANTD_CSS = 'virtual:antd.css';

// Not components, or providers without styles of their own.
const NOT_RENDERED = new Set(['ConfigProvider', 'Grid']);
// Parts the imported components draw inside themselves (a table's pagination, spinner, empty state,
// selection boxes and filter menu; a form's grid), rendered here alone so their styles are in too.
const INNER = ['Pagination', 'Spin', 'Empty', 'Checkbox', 'Radio', 'Dropdown', 'Tooltip', 'Button', 'Row', 'Col', 'Menu'];

/** The names the app imports from 'antd' (types and aliases aside), from every file under src. */
export function antdImports(src: string): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        for (const m of readFileSync(p, 'utf8').matchAll(/import\s+\{([^}]*)\}\s+from\s+'antd'/g)) {
          for (const part of m[1].split(',')) {
            const name = part.trim().split(/\s+as\s+/)[0].trim();
            if (name && !name.startsWith('type ')) names.add(name);
          }
        }
      }
    }
  };
  walk(src);
  return [...names].sort();
}

export function antdStaticStyle(theme: ThemeConfig): Plugin {
  let build = false;
  let root = process.cwd();
  return {
    name: 'telepath-antd-static-style',
    configResolved(config) {
      build = config.command === 'build';
      root = config.root;
    },
    resolveId(id) {
      return id === ANTD_CSS ? ANTD_CSS : null;
    },
    load(id) {
      if (id !== ANTD_CSS) return null;
      if (!build) return '';
      const css = extract(root, theme);
      this.info(`antd styles of the default theme: ${Math.round(css.length / 1024)} KB`);
      return css;
    },
  };
}

type Antd = Record<string, unknown> & { ConfigProvider: React.ComponentType<{ theme: ThemeConfig; children?: React.ReactNode }> };

function extract(root: string, theme: ThemeConfig): string {
  // The same antd, React and cssinjs the app is built with (their CommonJS builds).
  const require = createRequire(path.join(root, 'package.json'));
  const React = require('react') as typeof import('react');
  const { renderToString } = require('react-dom/server') as typeof import('react-dom/server');
  const antd = require('antd') as Antd;
  const { createCache, extractStyle, StyleProvider } = require('@ant-design/cssinjs') as typeof import('@ant-design/cssinjs');

  const isComponent = (c: unknown): c is React.ComponentType => typeof c === 'function' || (typeof c === 'object' && c !== null && '$$typeof' in c);
  const components: React.ComponentType[] = [];
  for (const name of new Set([...antdImports(path.join(root, 'src')), ...INNER])) {
    const c = antd[name];
    if (NOT_RENDERED.has(name) || !/^[A-Z]/.test(name) || !isComponent(c)) continue;
    components.push(c);
    // Its parts: Input.TextArea, Typography.Title, Layout.Sider, DatePicker.RangePicker…
    for (const [part, p] of Object.entries(c)) if (/^[A-Z]/.test(part) && isComponent(p)) components.push(p);
  }
  const cache = createCache();
  const quiet = console.error;
  console.error = () => undefined; // React's warnings for parts drawn without their parent
  try {
    for (const c of components) {
      try {
        renderToString(React.createElement(StyleProvider, { cache }, React.createElement(antd.ConfigProvider, { theme }, React.createElement(c))));
      } catch {
        // A part that needs its parent (Form.Item's list, Menu.Item…): its styles come with the parent.
      }
    }
  } finally {
    console.error = quiet;
  }
  return extractStyle(cache, { plain: true });
}
