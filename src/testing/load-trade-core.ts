// Loads the real pkg/ into jsdom tests. vite-plugin-wasm's loader needs a page URL, which jsdom does not give
// it, so tests use the Node loader (it instantiates trade_core_bg.wasm with the generated glue and binds it to
// the same shared-core/trade-core.ts wrappers the stores call). jsdom rewrites import.meta.url to http://, so the
// pkg/ folder is named by its file URL here.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { initTradeCore } from '../../shared-core/trade-core-node';

const PKG_DIR = pathToFileURL(`${path.resolve(import.meta.dirname, '../../pkg')}/`);

export function loadTradeCoreForTests(): Promise<void> {
  return initTradeCore(PKG_DIR);
}
