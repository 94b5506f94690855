// The import boundaries of DESIGN.md are enforced by ESLint (eslint.config.js): ky only in
// src/lib/api-client.ts, pkg/ only in the trade-core wrappers; and those of src/README.md: a feature imports no
// other feature and not src/app, src/stores imports no feature; and those of server/README.md: the server's layers
// run one way (routes → engine → services → db/lib, plugins only wire). This runs the real config.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: repo });

async function ruleErrors(rule: string, code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repo, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}

const restrictedImportErrors = (code: string, file: string) =>
  ruleErrors('no-restricted-imports', code, file);
const zoneErrors = (code: string, file: string) => ruleErrors('import-x/no-restricted-paths', code, file);

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

  test('a feature file importing another feature is an error; the same import in src/app is fine', async () => {
    const code = "import { signalsStore } from '../signals/signals-store';\nexport const s = signalsStore;\n";
    const errors = await zoneErrors(code, 'src/features/trades/trade-example.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('A feature imports no other feature');
    // Deeper in the feature, a dynamic import and a re-export are imports too.
    const deeper = [
      "export { SignalsPanel } from '../../signals/components/signals-panel';",
      "export const load = () => import('../../balances/balances-store');",
    ].join('\n');
    expect(await zoneErrors(deeper, 'src/features/trades/components/example.tsx')).toHaveLength(2);
    const fromApp =
      "import { signalsStore } from '../features/signals/signals-store';\nexport const s = signalsStore;\n";
    expect(await zoneErrors(fromApp, 'src/app/example.ts')).toEqual([]);
    const fromRoute =
      "import { signalsStore } from '../../features/signals/signals-store';\nexport const s = signalsStore;\n";
    expect(await zoneErrors(fromRoute, 'src/app/routes/example-page.tsx')).toEqual([]);
  });

  test('a feature may import its own files, contracts/, shared-core/ and the shared folders of src/', async () => {
    const code = [
      "import { tradesStore } from './trades-store';",
      "import { TradeStatus } from '../../../contracts';",
      "import { sumDecimals } from '../../../shared-core/trade-core';",
      "import { authStore } from '../../stores/auth-store';",
      "import { formatFixed } from '../../lib/format';",
      "import { Loader } from '../../components/ui';",
      "import { PIN_CODE_LENGTH } from '../../config/constants';",
      'export const all = [tradesStore, TradeStatus, sumDecimals, authStore, formatFixed, Loader, PIN_CODE_LENGTH];',
    ].join('\n');
    expect(await zoneErrors(code, 'src/features/trades/trade-example.ts')).toEqual([]);
  });

  test('a feature may not import src/app, and the shared folders import no feature', async () => {
    const fromFeature =
      "import { openTradeFromSignal } from '../../app/signal-trading';\nexport const o = openTradeFromSignal;\n";
    expect(await zoneErrors(fromFeature, 'src/features/signals/signal-example.ts')).toHaveLength(1);
    const fromStore =
      "import { tradesStore } from '../features/trades/trades-store';\nexport const t = tradesStore;\n";
    expect(await zoneErrors(fromStore, 'src/stores/example-store.ts')).toHaveLength(1);
    expect(await zoneErrors(fromStore, 'src/lib/example.ts')).toHaveLength(1);
  });

  test('a server layer importing against the one way is an error; the same import the other way is fine', async () => {
    const hub = "import { SocketHub } from '../services/socket-hub';\nexport const h = SocketHub;\n";
    expect(await zoneErrors(hub, 'server/src/engine/example.ts')).toEqual([]);
    expect(await zoneErrors(hub, 'server/src/plugins/example.ts')).toEqual([]);
    expect(await zoneErrors(hub, 'server/src/routes/example.ts')).toHaveLength(0);
    const monitor =
      "import { TradeMonitor } from '../engine/trade-monitor';\nexport const m = TradeMonitor;\n";
    const errors = await zoneErrors(monitor, 'server/src/services/example.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('Server layers run one way');
    expect(await zoneErrors(monitor, 'server/src/plugins/example.ts')).toHaveLength(1);
    const fromRoute =
      "import { TradeMonitor } from '../../engine/trade-monitor';\nexport const m = TradeMonitor;\n";
    expect(await zoneErrors(fromRoute, 'server/src/routes/trade/example.ts')).toEqual([]);
    // A route from the engine, a plugin from a route, a service from db, app.ts from anywhere: refused.
    const route = "import { tradeRoutes } from '../routes/trade';\nexport const r = tradeRoutes;\n";
    expect(await zoneErrors(route, 'server/src/engine/example.ts')).toHaveLength(1);
    const plugin = "import { authPlugin } from '../../plugins/auth';\nexport const p = authPlugin;\n";
    expect(await zoneErrors(plugin, 'server/src/routes/user/example.ts')).toHaveLength(1);
    const service = "import { SecretBox } from '../services/secret-box';\nexport const b = SecretBox;\n";
    expect(await zoneErrors(service, 'server/src/db/example.ts')).toHaveLength(1);
    const app = "import { buildApp } from '../app';\nexport const a = buildApp;\n";
    expect(await zoneErrors(app, 'server/src/services/example.ts')).toHaveLength(1);
  });

  test('server/src imports no test support; its tests may', async () => {
    const code = "import { createTestApp } from '../../test/test-app';\nexport const c = createTestApp;\n";
    expect(await zoneErrors(code, 'server/src/services/example.ts')).toHaveLength(1);
    expect(await zoneErrors(code, 'server/src/services/example.test.ts')).toEqual([]);
  });
});
