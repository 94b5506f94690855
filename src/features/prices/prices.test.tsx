import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { BTC_UUID, ETH_UUID, makePrice } from '../../testing/live-fixtures';
import { initTestI18n } from '../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { PRICE_QUEUE_MAX_COUNT, PRICE_TICKER_INTERVAL_MS } from '../../config/constants';
import { resetSymbolsStore, symbolsStore } from '../../stores/symbols-store';
import { PriceTicker } from './components/price-ticker';
import {
  dropOldestSymbolPrice,
  pricesStore,
  pushSymbolPrice,
  resetPricesStore,
} from '../../stores/prices-store';

const ETH = makePrice({
  symbol_uuid: ETH_UUID,
  symbol_name: 'ETH',
  symbol_pair: 'ETHUSDT',
  current_price: 3456.789,
  trend_moment: -1,
});

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  resetPricesStore();
  resetSymbolsStore();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('prices store', () => {
  test('keeps the latest price per symbol and queues one item per symbol, the newest in place', () => {
    pushSymbolPrice(makePrice({ current_price: 1 }));
    pushSymbolPrice(ETH);
    pushSymbolPrice(makePrice({ current_price: 2 }));
    expect(pricesStore.symbol_price_by_uuid[BTC_UUID]?.current_price).toBe(2);
    expect(pricesStore.symbol_price_queue.map((item) => [item.symbol_name, item.current_price])).toEqual([
      ['BTC', 2],
      ['ETH', 3456.789],
    ]);
  });

  test('dropping removes the oldest but never the last item', () => {
    pushSymbolPrice(makePrice());
    pushSymbolPrice(ETH);
    dropOldestSymbolPrice();
    expect(pricesStore.symbol_price_queue.map((item) => item.symbol_name)).toEqual(['ETH']);
    dropOldestSymbolPrice();
    expect(pricesStore.symbol_price_queue.map((item) => item.symbol_name)).toEqual(['ETH']);
  });

  test('the queue is capped, oldest dropped', () => {
    for (let i = 0; i < PRICE_QUEUE_MAX_COUNT + 5; i += 1) {
      pushSymbolPrice(makePrice({ symbol_uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }));
    }
    expect(pricesStore.symbol_price_queue).toHaveLength(PRICE_QUEUE_MAX_COUNT);
    expect(pricesStore.symbol_price_queue[0]?.symbol_uuid).toMatch(/000000000005$/);
  });
});

describe('PriceTicker', () => {
  test('renders nothing before the first price', () => {
    render(<PriceTicker />);
    expect(screen.queryByTestId('price-ticker')).toBeNull();
  });

  test('shows the first item at the symbol precision, coloured by trend, and moves on every 1150 ms', async () => {
    vi.useFakeTimers();
    symbolsStore.symbol_dict = {
      [ETH_UUID]: {
        symbol_uuid: ETH_UUID,
        symbol_name: 'ETH',
        symbol_pair: 'ETHUSDT',
        symbol_quantity_precision: 3,
        symbol_price_precision: 2,
      },
    };
    pushSymbolPrice(makePrice());
    pushSymbolPrice(ETH);
    render(<PriceTicker />);
    const ticker = screen.getByTestId('price-ticker');
    expect(ticker).toHaveTextContent('BTC');
    expect(ticker).toHaveClass('palette-green');
    await act(async () => {
      vi.advanceTimersByTime(PRICE_TICKER_INTERVAL_MS - 1);
    });
    expect(screen.getByTestId('price-ticker')).toHaveTextContent('BTC');
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByTestId('price-ticker')).toHaveTextContent('ETH');
    expect(screen.getByTestId('price-ticker-price')).toHaveTextContent('3456.79');
    expect(screen.getByTestId('price-ticker')).toHaveClass('palette-red');
    // The last item stays shown.
    await act(async () => {
      vi.advanceTimersByTime(PRICE_TICKER_INTERVAL_MS * 3);
    });
    expect(screen.getByTestId('price-ticker')).toHaveTextContent('ETH');
  });
});
