// pkg/BUILD-STAMP (scripts/build-core): the committed pkg/ passes its check without a rebuild (so a fresh machine
// installs no wasm tools), while a hand edit of pkg/ and a crate change without a rebuild both still fail it.
// Runs the real script on a copy of what it reads: the crate's inputs, pkg/, the script and the tool versions.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
let copy: string;

beforeEach(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'pkg-stamp-'));
  for (const part of [
    'scripts/build-core',
    'scripts/wasm-tools.env',
    'pkg',
    'crates/trade-core/Cargo.toml',
    'crates/trade-core/Cargo.lock',
    'crates/trade-core/README.md',
    'crates/trade-core/src',
    'node_modules/binaryen/package.json',
  ]) {
    fs.cpSync(path.join(repo, part), path.join(copy, part), { recursive: true });
  }
});

afterEach(() => fs.rmSync(copy, { recursive: true, force: true }));

/** Runs scripts/build-core in the copy with no wasm tool on PATH (as on a machine that did not install them). */
function buildCore(option: string) {
  const result = spawnSync('bash', ['scripts/build-core', option], {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: copy },
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

test('the committed pkg/ matches its stamp: checked without a rebuild or any wasm tool', () => {
  const check = buildCore('--check');
  expect(check.output).toContain('no rebuild needed');
  expect(check.status).toBe(0);
  expect(buildCore('--stamp').status).toBe(0);
});

test('a hand edit of pkg/ fails the check', () => {
  fs.appendFileSync(path.join(copy, 'pkg/trade_core_bg.js'), '\n// edited by hand\n');
  const check = buildCore('--check');
  expect(check.status).toBe(1);
  expect(check.output).toContain('pkg/ differs from what scripts/build-core wrote');
  // The crate did not change: no rebuild is due, only the edit is wrong.
  expect(buildCore('--stamp').status).toBe(0);
});

test('a crate change without a rebuild fails the check, and says a rebuild is due', () => {
  fs.appendFileSync(path.join(copy, 'crates/trade-core/src/order_math.rs'), '\n// changed\n');
  expect(buildCore('--stamp')).toMatchObject({ status: 1 });
  const check = buildCore('--check');
  expect(check.status).not.toBe(0);
  expect(check.output).toContain("the crate's inputs differ from pkg/BUILD-STAMP");
});

test('a Cargo.lock change and another wasm-bindgen version each make a rebuild due', () => {
  fs.appendFileSync(path.join(copy, 'crates/trade-core/Cargo.lock'), '\n');
  expect(buildCore('--stamp').status).toBe(1);
  fs.cpSync(path.join(repo, 'crates/trade-core/Cargo.lock'), path.join(copy, 'crates/trade-core/Cargo.lock'));
  expect(buildCore('--stamp').status).toBe(0);
  const env = path.join(copy, 'scripts/wasm-tools.env');
  fs.writeFileSync(
    env,
    fs.readFileSync(env, 'utf8').replace(/WASM_BINDGEN_VERSION=.*/, 'WASM_BINDGEN_VERSION=0.2.1'),
  );
  expect(buildCore('--stamp').status).toBe(1);
});
