// Shared by the tests/core suites: loads the real compiled pkg/ through the server's Node loader (the path
// the server takes) and reads the vector files the Rust tests read (crates/trade-core/tests/vectors), so the
// two cannot drift.
import { readFileSync } from 'node:fs';
import { initTradeCore, type TradeCoreModule } from '../../shared-core/trade-core-node';

const VECTORS = new URL('../../crates/trade-core/tests/vectors/', import.meta.url);

export function vectors<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, VECTORS), 'utf8')) as T;
}

/** The raw wasm-bindgen module behind the typed wrappers, for calls the wrappers do not expose. */
export async function loadRaw(): Promise<TradeCoreModule & Record<string, unknown>> {
  await initTradeCore();
  return (await import(new URL('../../pkg/trade_core_bg.js', import.meta.url).href)) as TradeCoreModule &
    Record<string, unknown>;
}

export const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));
export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** The `code` of what `run` throws (fails the test when it does not throw). */
export function codeOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  throw new Error('expected an error');
}
