import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { loadTradeCoreForTests } from '../../../testing/load-trade-core';
import { initTestI18n } from '../../../testing/i18n-test';
import { authStore, resetAuthStore } from '../../../stores/auth-store';
import { platformsStore, resetPlatformsStore } from '../../../stores/platforms-store';
import { resetTradeTokensStore, tradeTokensStore } from '../../../stores/trade-tokens-store';
import { balancesStore, resetBalancesStore } from '../balances-store';
import { BalanceWidget } from './balance-widget';

const A = '11111111-1111-4111-8111-111111111111';
const B = '33333333-3333-4333-8333-333333333333';
const balance = (total: number) => ({
  available_balance: total - 1,
  total_margin_balance: total,
  total_unrealized_profit: 0.5,
  total_wallet_balance: total - 0.5,
});

const USER = {
  user_uuid: A,
  user_email: 'a@b.c',
  user_nickname: 'abcd',
  user_trade_token_key: 'a'.repeat(64),
};
const PAPER = {
  platform_uuid: A,
  platform_name: 'Paper Futures',
  platform_background: '#00f',
  level: 3 as const,
  trade_leverage_max: 20,
  platform_url: 'x',
  platform_allows_browser: true,
};

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  resetAuthStore();
  resetPlatformsStore();
  resetBalancesStore();
  resetTradeTokensStore();
});
afterEach(cleanup);

describe('BalanceWidget', () => {
  test('hidden without a user or before the platform list is loaded', () => {
    render(<BalanceWidget />);
    expect(screen.queryByTestId('balance-widget')).toBeNull();
  });

  test('shows the summed total_margin_balance with 2 decimals and " $", and opens "Accounts Balance"', async () => {
    authStore.user = USER;
    platformsStore.platform_dict = {
      [A]: PAPER,
      [B]: {
        platform_uuid: B,
        platform_name: 'Binance',
        platform_background: '#ff0',
        level: 3,
        trade_leverage_max: 125,
        platform_url: 'y',
        platform_allows_browser: true,
      },
    };
    platformsStore.is_loaded = true;
    balancesStore.balance_by_platform_uuid = { [A]: balance(100.1), [B]: balance(50.255) };
    render(<BalanceWidget />);
    expect(screen.getByTestId('balance-widget')).toHaveTextContent('150.36 $');
    await act(async () => {
      fireEvent.click(screen.getByTestId('balance-widget'));
    });
    expect(screen.getByRole('dialog', { name: 'Accounts Balance' })).toBeInTheDocument();
    expect(await screen.findAllByTestId('balance-item')).toHaveLength(2);
    expect(screen.getByTestId('balance-total')).toHaveTextContent('150.36 $');
  });

  test('a token locked until its PIN is typed (after a reload) is unknown, not 0.00 $ (issue 53)', async () => {
    authStore.user = USER;
    platformsStore.platform_dict = { [A]: { ...PAPER, level: 1 } };
    platformsStore.is_loaded = true;
    render(<BalanceWidget />);
    const widget = screen.getByTestId('balance-widget');
    expect(widget).toHaveTextContent('— $');
    expect(widget).toHaveAttribute(
      'title',
      expect.stringContaining('Paper Futures: locked — type its PIN Code to read the balance'),
    );
    // The PIN typed and the balance read: the sum.
    await act(async () => {
      tradeTokensStore.token_by_platform_uuid[A] = { level: 3 };
      balancesStore.balance_by_platform_uuid = { [A]: balance(12.5) };
    });
    expect(widget).toHaveTextContent('12.50 $');
    expect(widget.getAttribute('title')).not.toContain('locked');
  });

  test('a balance that could not be read says why instead of 0.00 $ (issue 36)', async () => {
    authStore.user = USER;
    platformsStore.platform_dict = {
      [A]: PAPER,
    };
    platformsStore.is_loaded = true;
    balancesStore.error_by_platform_uuid = { [A]: 'API-key format invalid.' };
    render(<BalanceWidget />);
    const widget = screen.getByTestId('balance-widget');
    expect(widget).toHaveTextContent('— $');
    expect(widget).not.toHaveTextContent('0.00');
    expect(widget).toHaveAttribute(
      'title',
      expect.stringContaining('The balance could not be read: Paper Futures: API-key format invalid.'),
    );
    await act(async () => {
      fireEvent.click(widget);
    });
    expect(await screen.findByTestId('balance-failure')).toHaveTextContent(
      'The balance could not be read: API-key format invalid.',
    );
  });
});
