// SPA bundle budget (issue 9): the JavaScript a first page load needs — the entry script and every module
// it preloads, as index.html names them — at most 250 KB gzipped, and pkg's .wasm at most 120 KB gzipped.
// Charts and rarely used screens are lazy chunks and do not count. Reads a built SPA (default dist/).
// Run: npx vite build && npx tsx bench/bundle/size.ts [distDir]   (exit code 1 when over budget)
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const INITIAL_JS_BUDGET_BYTES = 250 * 1000;
const WASM_BUDGET_BYTES = 120 * 1000;

const dist = path.resolve(process.argv[2] ?? 'dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...new Set([...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]!))];
if (initial.length === 0) throw new Error(`no scripts found in ${dist}/index.html`);

const gzipped = (file: string) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const rows = initial.map((file) => ({ file, bytes: gzipped(file) })).sort((a, b) => b.bytes - a.bytes);
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
const wasm = fs.readdirSync(path.join(dist, 'assets')).filter((name) => name.endsWith('.wasm'));
const wasmBytes = wasm.reduce((sum, name) => sum + gzipped(path.join('assets', name)), 0);
const lazy = fs
  .readdirSync(path.join(dist, 'assets'))
  .filter((name) => name.endsWith('.js') && !initial.includes(`assets/${name}`));

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
for (const row of rows) console.log(`${kb(row.bytes).padStart(10)}  ${row.file}`);
console.log(
  `initial JavaScript: ${kb(total)} gzipped in ${rows.length} files (budget ${kb(INITIAL_JS_BUDGET_BYTES)})`,
);
console.log(`lazy chunks: ${lazy.length}`);
console.log(`wasm: ${kb(wasmBytes)} gzipped (budget ${kb(WASM_BUDGET_BYTES)})`);
const over = total > INITIAL_JS_BUDGET_BYTES || wasmBytes > WASM_BUDGET_BYTES;
console.log(over ? 'OVER BUDGET' : 'within budget');
process.exitCode = over ? 1 : 0;
