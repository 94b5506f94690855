import { describe, expect, test } from 'vitest';
import { TEST_RESOURCES } from '../testing/i18n-test';
import { I18N_NAMESPACES } from '../config/constants';

/** Every leaf as [path, value]; paths are arrays because some keys (server texts) contain dots. */
function leaves(value: unknown, path: string[] = []): [string[], unknown][] {
  if (typeof value !== 'object' || value === null) return [[path, value]];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, [...path, key]));
}

function placeholders(text: unknown): string[] {
  return typeof text === 'string' ? [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '').sort() : [];
}

describe.each(I18N_NAMESPACES)('locales of namespace %s', (namespace) => {
  const en: unknown = TEST_RESOURCES.en[namespace];
  const ua: unknown = TEST_RESOURCES.ua[namespace];

  test('en and ua have the same keys (every user-visible string has both texts)', () => {
    const paths = (tree: unknown) =>
      leaves(tree)
        .map(([path]) => JSON.stringify(path))
        .sort();
    expect(paths(ua)).toEqual(paths(en));
  });

  test('each ua text uses the same {{placeholders}} as its en text', () => {
    const uaByPath = new Map(leaves(ua).map(([path, text]) => [JSON.stringify(path), text]));
    for (const [path, enText] of leaves(en)) {
      const key = JSON.stringify(path);
      expect([key, placeholders(uaByPath.get(key))]).toEqual([key, placeholders(enText)]);
    }
  });
});
