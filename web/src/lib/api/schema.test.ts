// The API types are generated from the server's OpenAPI document; this test
// fails when schema.d.ts no longer matches openapi.json (run `make api`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

describe('generated API types', () => {
  it('match the checked-in OpenAPI document', async () => {
    const doc = JSON.parse(readFileSync(here('./openapi.json'), 'utf8'));
    const ast = await openapiTS(doc, { silent: true });
    const expected = COMMENT_HEADER + astToString(ast);
    const actual = readFileSync(here('./schema.d.ts'), 'utf8');
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
    expect(norm(actual) === norm(expected), 'schema.d.ts is stale: run `make api`').toBe(true);
  }, 30000);
});
