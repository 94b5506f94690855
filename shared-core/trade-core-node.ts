// trade-core for Node (the server, tests/core, bench/core): loads the same pkg/ the SPA ships and binds it
// to the one set of typed wrappers in shared-core/trade-core.ts, so server and browser share every function,
// unit and error code. pkg/ is wasm-pack `--target bundler` output, whose entry imports the .wasm as an ES
// module; Node cannot, so this file instantiates the .wasm itself with the generated glue as its imports.
import { readFile } from 'node:fs/promises';
import { bindTradeCore, isTradeCoreReady, type TradeCoreModule } from './trade-core';

export * from './trade-core';

/** The generated glue (pkg/trade_core_bg.js): the module's functions plus the hook that receives the instance. */
type Glue = TradeCoreModule & { __wbg_set_wasm(exports: WebAssembly.Exports): void };

const PKG_DIR = new URL('../pkg/', import.meta.url);
let loading: Promise<void> | null = null;

async function load(pkgDir: URL): Promise<void> {
  const bytes = await readFile(new URL('trade_core_bg.wasm', pkgDir));
  const glue = (await import(new URL('trade_core_bg.js', pkgDir).href)) as Glue;
  // The .wasm imports its JS helpers from './trade_core_bg.js' (the name wasm-bindgen 0.2.129 writes).
  const { instance } = await WebAssembly.instantiate(bytes, {
    './trade_core_bg.js': glue as object as WebAssembly.ModuleImports,
  });
  glue.__wbg_set_wasm(instance.exports);
  const start = instance.exports.__wbindgen_start;
  if (typeof start === 'function') start();
  bindTradeCore(glue);
}

/**
 * Loads pkg/ once (later and concurrent calls share the first load). `pkgDir` is for tests of another build;
 * it defaults to the repository's pkg/.
 */
export function initTradeCore(pkgDir: URL = PKG_DIR): Promise<void> {
  if (isTradeCoreReady()) return Promise.resolve();
  loading ??= load(pkgDir).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
