import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { authStore } from '../stores/auth-store';
import { makeTrade } from '../testing/trade-fixtures';
import { setOpenTrades } from '../features/trades/trades-store';
import { Footer } from './footer';
import { resetAllStores } from './reset-all-stores';
import { initTestI18n } from '../testing/i18n-test';
import { loadTradeCoreForTests } from '../testing/load-trade-core';

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  resetAllStores();
  authStore.is_init = false;
  authStore.user = {
    user_uuid: '22222222-2222-4222-8222-222222222222',
    user_email: 'trader@example.com',
    user_nickname: 'trader',
    user_trade_token_key: 'a'.repeat(64),
  };
});
afterEach(cleanup);

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Footer />
    </MemoryRouter>,
  );
}

describe('footer trade badges (SPEC.md §1)', () => {
  test('on /trading: total current PNL and possible loss, 2 decimals and " $", with tooltips', () => {
    setOpenTrades([
      makeTrade({
        trade_pnl_current: '0.105',
        trade_margin: '10',
        trade_treiling_stop_percent_current: '-10',
      }),
      makeTrade({
        trade_pnl_current: '0.2',
        trade_pnl_net: '0.0051',
        trade_margin: '12.5',
        trade_treiling_stop_percent_current: '3.3',
      }),
    ]);
    renderAt('/trading');
    const pnl = screen.getByTestId('footer-current-pnl');
    // SPEC.md §3 current_pnl = Σ trade_pnl_current = 0.105 + 0.2 = 0.305 under its name; beside it the net of
    // commissions (issue 18): 0.105 (no commission known: gross) + 0.0051 = 0.1101.
    expect(pnl).toHaveTextContent('PNL0.31 $·net0.11 $');
    expect(screen.getByTestId('footer-current-pnl-gross')).toHaveTextContent('0.31 $');
    expect(screen.getByTestId('footer-current-pnl-net')).toHaveTextContent('net0.11 $');
    expect(pnl).toHaveClass('is-positive');
    expect(pnl.getAttribute('title')).toMatch(
      /before commissions \(gross\).*Net: the same after their commissions/,
    );
    const loss = screen.getByTestId('footer-possible-loss');
    // 10 × −10 × 0.01 + 12.5 × 3.3 × 0.01 = −0.5875
    expect(loss).toHaveTextContent('-0.59 $');
    expect(loss).toHaveClass('is-negative');
    expect(loss.getAttribute('title')).toMatch(/trailing stop/);
  });

  test('the exact sums of trade-core, not float arithmetic; gross and net keep their own colours', () => {
    setOpenTrades([
      makeTrade({ trade_pnl_current: '0.5', trade_pnl_net: '-0.004' }),
      makeTrade({ trade_pnl_current: '0.505', trade_pnl_net: '-0.301' }),
    ]);
    renderAt('/trading');
    // Gross 0.5 + 0.505 = 1.005 exactly: 1.01 $ (in floats 0.5 + 0.505 is 1.00499…, shown 1.00); net −0.305.
    expect(screen.getByTestId('footer-current-pnl-gross')).toHaveTextContent('1.01 $');
    expect(screen.getByTestId('footer-current-pnl')).toHaveClass('is-positive');
    expect(screen.getByTestId('footer-current-pnl-net')).toHaveTextContent('-0.31 $');
    expect(screen.getByTestId('footer-current-pnl-net')).toHaveClass('is-negative');
  });

  test('in Ukrainian: PNL and нетто', async () => {
    await initTestI18n('ua');
    try {
      setOpenTrades([makeTrade({ trade_pnl_current: '-0.22', trade_pnl_net: '-0.34' })]);
      renderAt('/trading');
      expect(screen.getByTestId('footer-current-pnl')).toHaveTextContent('PNL-0.22 $·нетто-0.34 $');
      expect(screen.getByTestId('footer-current-pnl').getAttribute('title')).toMatch(/брутто.*Нетто/);
    } finally {
      await initTestI18n('en');
    }
  });

  test('a PNL of exactly 0 is green; a negative one red', () => {
    setOpenTrades([makeTrade({ trade_pnl_current: '0', trade_treiling_stop_percent_current: '0' })]);
    renderAt('/trading');
    expect(screen.getByTestId('footer-current-pnl-gross')).toHaveTextContent('0.00 $');
    expect(screen.getByTestId('footer-current-pnl')).toHaveClass('is-positive');
    cleanup();
    setOpenTrades([makeTrade({ trade_pnl_current: '-3.456' })]);
    renderAt('/trading');
    expect(screen.getByTestId('footer-current-pnl-gross')).toHaveTextContent('-3.46 $');
    expect(screen.getByTestId('footer-current-pnl')).toHaveClass('is-negative');
  });

  test.each(['/', '/trade_history', '/dashboard', '/trade_preferences'])('not on %s', (path) => {
    setOpenTrades([makeTrade()]);
    renderAt(path);
    expect(screen.getByTestId('app-version')).toHaveTextContent('1.0.6');
    expect(screen.queryByTestId('footer-current-pnl')).toBeNull();
    expect(screen.queryByTestId('footer-possible-loss')).toBeNull();
  });
});
