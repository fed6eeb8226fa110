// ESLint for the web app: TypeScript's recommended rules, the rules of hooks, and
// the layering of DESIGN.md §4 — app → features → entities → components/lib, and
// no feature importing another feature (what several share lives in src/entities/).
import { readdirSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';

const root = fileURLToPath(new URL('.', import.meta.url));
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** The import/no-restricted-paths zones: each says which folder may not import from which. */
export const layerZones = [
  ...features.map((f) => ({
    target: `./src/features/${f}`,
    from: './src/features',
    except: [`./${f}`],
    message: 'features never import each other: move what both need to src/entities/ (or src/components, src/lib)',
  })),
  {
    target: './src/entities',
    from: ['./src/features', './src/app'],
    message: 'entities sit below the features: they may use src/components and src/lib only',
  },
  {
    target: ['./src/components', './src/lib'],
    from: ['./src/features', './src/entities', './src/app'],
    message: 'components and lib are the bottom layer: they know no feature, entity or app code',
  },
  {
    target: './src/features',
    from: './src/app',
    message: 'the app wires the features; features do not import it',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'src/lib/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { import: importPlugin, 'react-hooks': reactHooks },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
    },
    rules: {
      'import/no-restricted-paths': ['error', { basePath: root, zones: layerZones }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        { name: 'antd', importNames: ['Tabs'], message: 'use Tabs from src/components/ui/Tabs: it keeps the overflow button out of the tab list' },
        { name: 'react-router', importNames: ['useSearchParams'], message: 'use useSearchParams from src/lib/searchParams: its writes start from the address as the router has it now, so a list cannot put back a view or tab a switch has just left' },
      ],
      // Unused names are the compiler's job (noUnusedLocals/noUnusedParameters), with its `_` convention.
      '@typescript-eslint/no-unused-vars': 'off',
    },
  },
  { files: ['src/components/ui/Tabs.tsx'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['src/lib/searchParams.ts'], rules: { 'no-restricted-imports': 'off' } },
);
