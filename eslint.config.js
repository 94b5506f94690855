// ESLint flat config: typescript-eslint + react-hooks; import boundaries of DESIGN.md (ky only in
// src/lib/api-client.ts, pkg/ only in the trade-core wrappers).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const pkgPattern = {
  group: ['**/pkg/*', '**/pkg'],
  message: 'Import pkg/ only through the trade-core wrappers.',
};
const kyPath = { name: 'ky', message: 'Import ky only in src/lib/api-client.ts.' };

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
