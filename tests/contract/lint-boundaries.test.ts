// The import boundaries of DESIGN.md are enforced by ESLint (eslint.config.js): ky only in
// src/lib/api-client.ts, pkg/ only in the trade-core wrappers. This runs the real config.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: repo });

async function restrictedImportErrors(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repo, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  test('ky is refused outside the API client and allowed inside it', async () => {
    const code = "import ky from 'ky';\nexport const k = ky;\n";
    const errors = await restrictedImportErrors(code, 'src/features/auth/api/login.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('Import ky only in src/lib/api-client.ts.');
    expect(await restrictedImportErrors(code, 'server/src/routes/x.ts')).toHaveLength(1);
    expect(await restrictedImportErrors(code, 'src/lib/api-client.ts')).toEqual([]);
  });

  test('pkg/ is refused outside the trade-core wrappers and allowed inside them', async () => {
    const code = "import * as core from '../../pkg/trade_core.js';\nexport const c = core;\n";
    const errors = await restrictedImportErrors(code, 'src/features/trades/trade-math.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('Import pkg/ only through the trade-core wrappers.');
    expect(await restrictedImportErrors(code, 'shared-core/trade-core.ts')).toEqual([]);
    expect(await restrictedImportErrors(code, 'shared-core/trade-core-node.ts')).toEqual([]);
  });
});
