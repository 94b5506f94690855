// ESLint flat config: typescript-eslint + react-hooks; import boundaries of DESIGN.md (ky only in
// src/lib/api-client.ts, pkg/ only in the trade-core wrappers) and of src/README.md (a feature imports no
// other feature, nor src/app; src/stores imports no feature; nothing outside src/app imports it) and of
// server/README.md (the server's layers run one way: routes → engine → services → db and lib; plugins only wire).
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

const pkgPattern = {
  group: ['**/pkg/*', '**/pkg'],
  message: 'Import pkg/ only through the trade-core wrappers.',
};
const kyPath = { name: 'ky', message: 'Import ky only in src/lib/api-client.ts.' };

// One zone per feature folder: its files may import anything in src/ but another feature and src/app (issue 19:
// features compose at the app level). Made from the folders, so a new feature is covered without an edit here.
const features = fs
  .readdirSync('src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const FEATURE_MESSAGE =
  'A feature imports no other feature and not src/app: compose features in src/app (src/README.md).';
const srcZones = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: FEATURE_MESSAGE,
  })),
  { target: './src/features', from: './src/app', message: FEATURE_MESSAGE },
  {
    target: ['./src/stores', './src/lib', './src/components', './src/config'],
    from: ['./src/features', './src/app'],
    message:
      'src/stores, src/lib, src/components and src/config import no feature and not src/app (src/README.md).',
  },
];

// The server's layers (issue 19; server/README.md): routes → engine → services → db and lib, one way; plugins wire
// services into Fastify and import no route nor the engine; http-error.ts and config.ts import no layer; app.ts,
// instance.ts and server.ts (the wiring) are imported by no layer; no production file imports the test support in
// server/test. Test files beside the code may import what they test with (they are not a layer).
const S = './server/src';
const SERVER_MESSAGE =
  'Server layers run one way: routes → engine → services → db/lib; plugins only wire (server/README.md).';
const wiring = [`${S}/app.ts`, `${S}/instance.ts`, `${S}/server.ts`];
const serverZones = [
  { target: `${S}/routes`, from: [`${S}/plugins`, ...wiring] },
  { target: `${S}/engine`, from: [`${S}/routes`, `${S}/plugins`, ...wiring] },
  { target: `${S}/plugins`, from: [`${S}/routes`, `${S}/engine`, ...wiring] },
  { target: `${S}/services`, from: [`${S}/routes`, `${S}/plugins`, `${S}/engine`, ...wiring] },
  {
    target: [`${S}/db`, `${S}/lib`, `${S}/http-error.ts`, `${S}/config.ts`],
    from: [`${S}/routes`, `${S}/plugins`, `${S}/engine`, `${S}/services`, ...wiring],
  },
  { target: S, from: ['./server/test', './src'] },
].map((zone) => ({ ...zone, message: SERVER_MESSAGE }));

export default tseslint.config(
  {
    ignores: ['dist/**', 'pkg/**', 'node_modules/**', 'crates/**', 'data/**', 'screenshots/**', 'target/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [kyPath], patterns: [pkgPattern] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: srcZones }] },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: serverZones }] },
  },
  {
    files: ['src/lib/api-client.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [pkgPattern] }] },
  },
  {
    files: [
      'shared-core/trade-core.ts',
      'shared-core/trade-core-node.ts',
      'tests/core/**/*.ts',
      'bench/**/*.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: [kyPath] }] },
  },
);
