// @vitest-environment node
// The layering rule of eslint.config.js fires: imports across features, or up the
// layers, are lint errors; imports down the layers are not.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { join } from 'node:path';

const WEB = join(__dirname, '..', '..');
const eslint = new ESLint({ cwd: WEB });

/** The layering errors ESLint reports for a file at path importing spec. */
async function layerErrors(path: string, spec: string): Promise<string[]> {
  const [res] = await eslint.lintText(`import * as x from '${spec}';\nexport const y = x;\n`, { filePath: join(WEB, path) });
  return res.messages.filter((m) => m.ruleId === 'import/no-restricted-paths').map((m) => m.message);
}

describe('layers (ESLint import/no-restricted-paths)', () => {
  it('a feature may not import another feature', async () => {
    expect(await layerErrors('src/features/consultation/Fixture.tsx', '../diagnosis/api')).toEqual([expect.stringContaining('features never import each other')]);
    expect(await layerErrors('src/features/diagnosis/workspace/Fixture.tsx', '../../consultation/api')).toHaveLength(1);
  });

  it('a feature imports its own files, entities, components and lib', async () => {
    expect(await layerErrors('src/features/consultation/Fixture.tsx', './api')).toEqual([]);
    expect(await layerErrors('src/features/consultation/Fixture.tsx', '../../entities/case/api')).toEqual([]);
    expect(await layerErrors('src/features/consultation/Fixture.tsx', '../../components/ui/PageContainer')).toEqual([]);
    expect(await layerErrors('src/features/consultation/Fixture.tsx', '../../lib/format')).toEqual([]);
  });

  it('entities, components and lib do not import upwards', async () => {
    expect(await layerErrors('src/entities/case/Fixture.tsx', '../../features/diagnosis/api')).toHaveLength(1);
    expect(await layerErrors('src/entities/case/Fixture.tsx', '../org/api')).toEqual([]);
    expect(await layerErrors('src/components/ui/Fixture.tsx', '../../entities/case/api')).toHaveLength(1);
    expect(await layerErrors('src/lib/Fixture.ts', '../features/diagnosis/api')).toHaveLength(1);
    expect(await layerErrors('src/features/shell/Fixture.tsx', '../../app/router')).toHaveLength(1);
  });
});
