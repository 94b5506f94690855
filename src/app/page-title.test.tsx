import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { authStore } from '../stores/auth-store';
import { setBitcoinInformation } from '../features/bitcoin/bitcoin-store';
import { setOpenTrades } from '../features/trades/trades-store';
import { pageTitle, trendArrow, usePageTitle } from './page-title';
import { resetAllStores } from './reset-all-stores';
import { initTestI18n } from '../testing/i18n-test';
import { loadTradeCoreForTests } from '../testing/load-trade-core';
import { BTC_UUID, ETH_UUID, PLATFORM_UUID } from '../testing/live-fixtures';

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => resetAllStores());
afterEach(cleanup);

describe('page title (SPEC.md §1)', () => {
  test('rounded price with grouped thousands, the trend arrow and the count of open trades', () => {
    expect(pageTitle({ current_price: 97123.49, trend_moment: 1 }, 2, 'Signaldesk')).toBe('97 123 ↑ (2)');
    expect(pageTitle({ current_price: 97123.5, trend_moment: -1 }, 0, 'Signaldesk')).toBe('97 124 ↓ (0)');
    expect(pageTitle({ current_price: 999.4, trend_moment: 0 }, 1, 'Signaldesk')).toBe('999 → (1)');
  });

  test('a visitor sees no trade count; before the first price the title is the app name', () => {
    expect(pageTitle({ current_price: 1234567, trend_moment: 1 }, undefined, 'Signaldesk')).toBe(
      '1 234 567 ↑',
    );
    expect(pageTitle(undefined, 3, 'Signaldesk')).toBe('Signaldesk');
  });

  test('arrows', () => {
    expect([1, -1, 0].map(trendArrow)).toEqual(['↑', '↓', '→']);
  });

  test('the hook follows the bitcoin price and the open trades', async () => {
    function Title() {
      usePageTitle();
      return null;
    }
    render(<Title />);
    expect(document.title).toBe('Signaldesk');
    await act(async () =>
      setBitcoinInformation({ current_price: 97123.4, trend_moment: 1, trend_prediction: 0.5 }),
    );
    expect(document.title).toBe('97 123 ↑');
    await act(async () => {
      authStore.user = {
        user_uuid: '22222222-2222-4222-8222-222222222222',
        user_email: 'a@b.c',
        user_nickname: 'abcd',
        user_trade_token_key: 'a'.repeat(64),
      };
      setOpenTrades([
        { trade_uuid: 't1', platform_uuid: PLATFORM_UUID, symbol: { symbol_uuid: BTC_UUID } },
        { trade_uuid: 't2', platform_uuid: PLATFORM_UUID, symbol: { symbol_uuid: ETH_UUID } },
      ]);
    });
    expect(document.title).toBe('97 123 ↑ (2)');
  });
});
