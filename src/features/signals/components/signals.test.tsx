import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { byUuid, makeSignal, NEURON_UUID, PLATFORM_UUID } from '../../../testing/live-fixtures';
import { initTestI18n } from '../../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../../testing/load-trade-core';
import { SIGNAL_INFO_HIDE_DELAY_MS } from '../../../config/constants';
import { preferencesStore, resetPreferencesStore } from '../../../stores/preferences-store';
import { TradeTokenLevel } from '../../../stores/token-level';
import { resetSymbolsStore, symbolsStore } from '../../../stores/symbols-store';
import { BTC_UUID, makePrice } from '../../../testing/live-fixtures';
import { pushSymbolPrice, resetPricesStore } from '../../../stores/prices-store';
import { bracketsStore, resetBracketsStore } from '../../../stores/brackets-store';
import { toLeverageBrackets } from '../../../../shared-core/exchange-answers';
import { resetTradeTokensStore, tradeTokensStore } from '../../../stores/trade-tokens-store';
import { resetSignalInfoStore } from '../signal-info-store';
import { pushSignals, removeSignal, resetSignalsStore, signalsStore } from '../signals-store';
import type { OpenTradeFromSignal } from '../trade-from-signal';
import { useSignalTimers } from '../use-signal-timers';
import { neuronChipText } from './signal-card';
import { keepWhatIf, resetWhatIfStore } from '../../../stores/what-if-store';
import type { WhatIfResult } from '../../../../contracts/what-if';
import { SignalInfoBar } from './signal-info-bar';
import { SignalsPanel } from './signals-panel';

// What a card's trade does is the app's rule (app/signal-trading.ts); the cards are handed it, here a spy.
const openTradeFromSignal = vi.fn<OpenTradeFromSignal>(async () => undefined);

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  resetSignalsStore();
  resetSignalInfoStore();
  resetPreferencesStore();
  resetTradeTokensStore();
  resetWhatIfStore();
  openTradeFromSignal.mockClear();
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** The session's signal clock, the header bar and the panel, as the layout mounts them. */
function Session() {
  useSignalTimers(true, openTradeFromSignal);
  return (
    <>
      <SignalInfoBar />
      <SignalsPanel onTrade={openTradeFromSignal} />
      <Location />
    </>
  );
}

function renderSession() {
  return render(
    <MemoryRouter initialEntries={['/trading']}>
      <Routes>
        <Route path="*" element={<Session />} />
      </Routes>
    </MemoryRouter>,
  );
}

async function advance(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
}

function setTokenLevel(level: TradeTokenLevel) {
  tradeTokensStore.token_by_platform_uuid[PLATFORM_UUID] = { level };
}

function setPreferences(trade_auto_open_delay: number, minimal_accuracy = 60) {
  preferencesStore.trade_preferences = {
    trade_auto_open_delay,
    trade_auto_close_delay: 0,
    minimal_accuracy,
    trade_in_server_side: 0,
    trade_max_open_trades: 0,
    trade_daily_loss_limit: 0,
    trade_exits_on_exchange: 1,
  };
}

describe('signal card', () => {
  test('shows platform, symbol, direction, entry at the symbol precision, accuracy %, trend and neuron', () => {
    pushSignals(byUuid(makeSignal({ signal_price_enter: 97123.45 })));
    renderSession();
    const card = screen.getByTestId('signal-card');
    expect(within(card).getByTestId('platform-chip')).toHaveTextContent('Paper Futures');
    expect(card).toHaveTextContent('BTC');
    expect(within(card).getByTestId('signal-direction')).toHaveTextContent('Buy');
    expect(within(card).getByTestId('signal-entry-price')).toHaveTextContent('97123.5');
    expect(within(card).getByTestId('signal-accuracy')).toHaveTextContent('67.89 %');
    expect(within(card).getByTestId('signal-trend')).toHaveTextContent('BULL');
    expect(within(card).getByTestId('signal-neuron')).toHaveTextContent('momentum-5m');
  });

  test('the accuracy says what it measures; beside it, the neuron’s win rate replayed with the trader’s settings (issue 42)', async () => {
    pushSignals(byUuid(makeSignal({})));
    renderSession();
    const card = screen.getByTestId('signal-card');
    expect(within(card).getByTestId('signal-accuracy')).toHaveAttribute(
      'title',
      expect.stringMatching(/^The neuron's hit rate on this symbol: .* It is not the share of trades won/),
    );
    // No replay known for the platform: no figure.
    expect(within(card).queryByTestId('signal-replayed')).toBeNull();
    const tally = (neuron_uuid: string, win_rate: string) => ({
      neuron_uuid,
      neuron_tag_name: 'n',
      trades: 10,
      won: 5,
      lost: 5,
      win_rate,
      pnl_net: '0',
    });
    await act(async () => {
      keepWhatIf(PLATFORM_UUID, {
        by_neuron: [tally('00000000-0000-4000-8000-0000000000ff', '90.00'), tally(NEURON_UUID, '53.40')],
      } as unknown as WhatIfResult);
    });
    expect(within(card).getByTestId('signal-replayed')).toHaveTextContent(
      '53 % of trades won with your settings',
    );
  });

  test('trend labels BEAR and FLET; without a neuron no neuron chip', () => {
    pushSignals(byUuid(makeSignal({ trend_moment: -1, neuron: undefined })));
    pushSignals(byUuid(makeSignal({ trend_moment: 0, signal_direction_created: 'SELL' })));
    renderSession();
    const [flat, bear] = screen.getAllByTestId('signal-card');
    expect(within(flat!).getByTestId('signal-trend')).toHaveTextContent('FLET');
    expect(within(flat!).getByTestId('signal-direction')).toHaveTextContent('Sell');
    expect(within(bear!).getByTestId('signal-trend')).toHaveTextContent('BEAR');
    expect(within(bear!).queryByTestId('signal-neuron')).toBeNull();
  });

  test('the neuron chip falls back to the first segment of the uuid', () => {
    expect(neuronChipText({ neuron_uuid: NEURON_UUID, neuron_tag_name: '' })).toBe('a1b2c3d4');
    expect(neuronChipText({ neuron_uuid: NEURON_UUID, neuron_tag_name: 'trend' })).toBe('trend');
  });

  test('the countdown starts at 99, ticks every second and the card goes at 0', async () => {
    pushSignals(byUuid(makeSignal()));
    renderSession();
    expect(screen.getByTestId('signal-seconds-left')).toHaveTextContent('99');
    await advance(1000);
    expect(screen.getByTestId('signal-seconds-left')).toHaveTextContent('98');
    await advance(97_000);
    expect(screen.getByTestId('signal-seconds-left')).toHaveTextContent('1');
    await advance(1000);
    expect(screen.queryByTestId('signal-card')).toBeNull();
    expect(signalsStore.signal_list).toEqual([]);
    expect(screen.getByTestId('signals-empty')).toBeInTheDocument();
  });

  test('a click on the countdown removes the card', async () => {
    pushSignals(byUuid(makeSignal()));
    renderSession();
    fireEvent.click(screen.getByRole('button', { name: 'Remove signal (99 s left)' }));
    await advance(0);
    expect(screen.queryByTestId('signal-card')).toBeNull();
  });

  test('the trade button is enabled only at TRADE_AVAILABLE, with the disabled / buy / sell tooltips', async () => {
    pushSignals(byUuid(makeSignal()));
    pushSignals(byUuid(makeSignal({ signal_direction_created: 'SELL' })));
    setTokenLevel(TradeTokenLevel.WRONG_PIN_CODE);
    renderSession();
    const [sell, buy] = screen.getAllByTestId('signal-card');
    expect(within(buy!).getByTestId('signal-trade')).toBeDisabled();
    expect(within(buy!).getByTestId('signal-trade-tooltip')).toHaveAttribute(
      'title',
      expect.stringContaining('Trading is not available on Paper Futures'),
    );
    await act(async () => setTokenLevel(TradeTokenLevel.TRADE_AVAILABLE));
    expect(within(buy!).getByTestId('signal-trade')).toBeEnabled();
    expect(within(buy!).getByTestId('signal-trade-tooltip')).toHaveAttribute(
      'title',
      'Open a BUY trade on BTC',
    );
    expect(within(sell!).getByTestId('signal-trade')).toHaveTextContent('Sell');
    expect(within(sell!).getByTestId('signal-trade-tooltip')).toHaveAttribute(
      'title',
      'Open a SELL trade on BTC',
    );
  });

  test('clicking trade calls openTradeFromSignal; the card reads "processing" until it ends', async () => {
    let finish: () => void = () => undefined;
    openTradeFromSignal.mockImplementationOnce(() => new Promise<void>((resolve) => (finish = resolve)));
    const signal = makeSignal();
    pushSignals(byUuid(signal));
    setTokenLevel(TradeTokenLevel.TRADE_AVAILABLE);
    renderSession();
    fireEvent.click(screen.getByTestId('signal-trade'));
    await advance(0);
    expect(openTradeFromSignal).toHaveBeenCalledWith(signal.signal_uuid);
    expect(screen.getByTestId('signal-trade')).toBeDisabled();
    expect(screen.getByTestId('signal-trade-tooltip')).toHaveAttribute('title', 'Opening the trade…');
    await act(async () => finish());
    expect(screen.getByTestId('signal-trade')).toBeEnabled();
  });

  test('two neurons calling opposite ways on a symbol in one minute are said to disagree, on both cards (issue 53)', () => {
    const at = (second: number) => new Date(Date.UTC(2026, 10, 22, 7, 0, second)).toISOString();
    const other = { neuron_uuid: '00000000-0000-4000-8000-0000000000aa', neuron_tag_name: 'logistic-online' };
    pushSignals(byUuid(makeSignal({ signal_created_at: at(0) })));
    pushSignals(
      byUuid(makeSignal({ signal_direction_created: 'SELL', neuron: other, signal_created_at: at(30) })),
    );
    // The same direction, or another symbol, is no disagreement.
    pushSignals(byUuid(makeSignal({ signal_created_at: at(40) })));
    renderSession();
    const chips = screen.getAllByTestId('signal-disagrees');
    expect(chips).toHaveLength(3);
    expect(chips.map((chip) => chip.textContent)).toEqual([
      'Neurons disagree',
      'Neurons disagree',
      'Neurons disagree',
    ]);
    const sellCard = screen
      .getAllByTestId('signal-card')
      .find((card) => within(card).getByTestId('signal-direction').textContent === 'Sell')!;
    expect(within(sellCard).getByTestId('signal-disagrees')).toHaveAttribute(
      'title',
      'Another neuron called the other direction on this symbol within the same minute: momentum-5m',
    );
  });

  test('opposite calls minutes apart are not a disagreement', () => {
    pushSignals(
      byUuid(makeSignal({ signal_created_at: new Date(Date.UTC(2026, 10, 22, 7, 0, 0)).toISOString() })),
    );
    pushSignals(
      byUuid(
        makeSignal({
          signal_direction_created: 'SELL',
          signal_created_at: new Date(Date.UTC(2026, 10, 22, 7, 5, 0)).toISOString(),
        }),
      ),
    );
    renderSession();
    expect(screen.queryByTestId('signal-disagrees')).toBeNull();
  });

  test('the details button puts signal_detail_uuid in the address', async () => {
    const signal = makeSignal();
    pushSignals(byUuid(signal));
    renderSession();
    fireEvent.click(screen.getByRole('button', { name: 'Signal Trend Data' }));
    await advance(0);
    expect(screen.getByTestId('location')).toHaveTextContent(
      `/trading?signal_detail_uuid=${signal.signal_uuid}`,
    );
  });
});

// Issue 53: the default 10 $ × 10 on BTC at 85 800 is 0.001 BTC (85.80 $), below its MIN_NOTIONAL of 100 $.
describe('a trade the exchange would refuse (issue 53)', () => {
  beforeEach(() => {
    resetSymbolsStore();
    resetPricesStore();
    symbolsStore.symbol_dict[BTC_UUID] = {
      symbol_uuid: BTC_UUID,
      symbol_name: 'BTC',
      symbol_pair: 'BTCUSDT',
      symbol_quantity_precision: 3,
      symbol_price_precision: 1,
      symbol_min_quantity: '0.001',
      symbol_max_quantity: '120',
      symbol_min_notional: '100',
    };
    preferencesStore.platform_preferences_by_uuid[PLATFORM_UUID] = {
      trade_margin: 10,
      trade_leverage: 10,
      trade_stop_loss_percent: 5,
      trade_take_profit_percent: 2.5,
      trade_treiling_stop_percent: 3,
    };
    setTokenLevel(TradeTokenLevel.TRADE_AVAILABLE);
  });

  test('the card says what margin it needs and opens with it in one click, said on the button', async () => {
    const signal = makeSignal({ signal_price_enter: 85800 });
    pushSignals(byUuid(signal));
    renderSession();
    const card = screen.getByTestId('signal-card');
    // 0.002 BTC holds 1 % up (86 658): 0.002 × 86 658 ÷ 10 = 17.33 → 17.50 on the margin's 0.25 step.
    expect(within(card).getByTestId('signal-placement')).toHaveTextContent(
      "Needs ≥ 17.50 $ margin at ×10: with less the order is below the exchange's smallest (100 $)",
    );
    const button = within(card).getByTestId('signal-trade');
    expect(button).toHaveTextContent('Buy with 17.50 $');
    expect(within(card).getByTestId('signal-trade-tooltip')).toHaveAttribute(
      'title',
      expect.stringContaining('Needs ≥ 17.50 $ margin'),
    );
    fireEvent.click(button);
    await advance(0);
    expect(openTradeFromSignal).toHaveBeenCalledExactlyOnceWith(signal.signal_uuid, { margin: 17.5 });
    // The latest price rules when the page has one: at 50 000 (1 % down, 49 500) 0.003 BTC × 49 500 ÷ 10 = 14.85.
    await act(async () => pushSymbolPrice(makePrice({ current_price: 50000 })));
    expect(within(card).getByTestId('signal-trade')).toHaveTextContent('Buy with 15.00 $');
  });

  test('auto-open skips it and says so; once the margin is enough it is offered and opened as set', async () => {
    setPreferences(1);
    const signal = makeSignal({ signal_price_enter: 85800 });
    pushSignals(byUuid(signal));
    renderSession();
    await advance(5000);
    expect(openTradeFromSignal).not.toHaveBeenCalled();
    expect(screen.queryByTestId('signal-auto-open')).toBeNull();
    expect(screen.getByTestId('signal-placement')).toHaveTextContent(/\)Auto-open skips it\.$/);
    await act(async () => {
      preferencesStore.platform_preferences_by_uuid[PLATFORM_UUID]!.trade_margin = 20;
    });
    expect(screen.queryByTestId('signal-placement')).toBeNull();
    expect(screen.getByTestId('signal-trade')).toHaveTextContent(/^Buy$/);
    await advance(1000);
    expect(openTradeFromSignal).toHaveBeenCalledExactlyOnceWith(signal.signal_uuid);
  });

  test('above the largest market order the trade button is off and says why', async () => {
    preferencesStore.platform_preferences_by_uuid[PLATFORM_UUID]!.trade_margin = 1000;
    preferencesStore.platform_preferences_by_uuid[PLATFORM_UUID]!.trade_leverage = 125;
    pushSignals(byUuid(makeSignal({ signal_price_enter: 850 })));
    renderSession();
    expect(screen.getByTestId('signal-trade')).toBeDisabled();
    expect(screen.getByTestId('signal-placement')).toHaveTextContent(
      "Above the exchange's largest market order (120 BTC): lower the margin or the leverage",
    );
  });

  test("above what the account's leverage bracket allows: the largest margin that fits, in one click", async () => {
    resetBracketsStore();
    // A symbol whose ×20 bracket holds 10 000 $ (an account's table, as the exchange answers it).
    bracketsStore.by_platform_uuid[PLATFORM_UUID] = {
      BTCUSDT: toLeverageBrackets('test', 'BTCUSDT', {
        symbol: 'BTCUSDT',
        brackets: [
          { initialLeverage: 20, notionalFloor: 0, notionalCap: 10000, maintMarginRatio: 0.01, cum: 0 },
          {
            initialLeverage: 10,
            notionalFloor: 10000,
            notionalCap: 100000,
            maintMarginRatio: 0.025,
            cum: 150,
          },
        ],
      }),
    };
    preferencesStore.platform_preferences_by_uuid[PLATFORM_UUID]!.trade_margin = 1000;
    preferencesStore.platform_preferences_by_uuid[PLATFORM_UUID]!.trade_leverage = 20;
    const signal = makeSignal({ signal_price_enter: 85800 });
    pushSignals(byUuid(signal));
    renderSession();
    // 1000 × 20 = 20 000 $ > 10 000: 10 000 ÷ (20 × 1.01) = 495.05 → 495 $ on the 0.25 step.
    expect(screen.getByTestId('signal-placement')).toHaveTextContent(
      'At most 495.00 $ margin at ×20: the exchange allows a position of up to 10000 $ at this leverage',
    );
    const button = screen.getByTestId('signal-trade');
    expect(button).toHaveTextContent('Buy with 495.00 $');
    fireEvent.click(button);
    await advance(0);
    expect(openTradeFromSignal).toHaveBeenCalledExactlyOnceWith(signal.signal_uuid, { margin: 495 });
    // At ×10 the same margin is within the 100 000 $ its bracket allows.
    await act(async () => {
      preferencesStore.platform_preferences_by_uuid[PLATFORM_UUID]!.trade_leverage = 10;
    });
    expect(screen.queryByTestId('signal-placement')).toBeNull();
    resetBracketsStore();
  });
});

describe('auto-open', () => {
  test('after trade_auto_open_delay seconds the card is traded once', async () => {
    setPreferences(5);
    setTokenLevel(TradeTokenLevel.TRADE_AVAILABLE);
    const signal = makeSignal();
    pushSignals(byUuid(signal));
    renderSession();
    expect(screen.getByTestId('signal-auto-open')).toHaveTextContent('Opens automatically in 5 s');
    await advance(4000);
    expect(openTradeFromSignal).not.toHaveBeenCalled();
    await advance(1000);
    expect(openTradeFromSignal).toHaveBeenCalledExactlyOnceWith(signal.signal_uuid);
    await advance(10_000);
    expect(openTradeFromSignal).toHaveBeenCalledTimes(1);
  });

  test('a delay of 0 is OFF', async () => {
    setPreferences(0);
    setTokenLevel(TradeTokenLevel.TRADE_AVAILABLE);
    pushSignals(byUuid(makeSignal()));
    renderSession();
    expect(screen.getByTestId('signals-auto-open-setting')).toHaveTextContent('Auto open: OFF');
    await advance(98_000);
    expect(openTradeFromSignal).not.toHaveBeenCalled();
  });

  test('not without TRADE_AVAILABLE, nor below minimal_accuracy', async () => {
    setPreferences(2, 70);
    setTokenLevel(TradeTokenLevel.TRADE_AVAILABLE);
    pushSignals(byUuid(makeSignal({ signal_accuracy: 0.69 })));
    pushSignals(
      byUuid(makeSignal({ platform_uuid: '22222222-2222-4222-8222-222222222222', signal_accuracy: 0.9 })),
    );
    renderSession();
    await advance(10_000);
    expect(openTradeFromSignal).not.toHaveBeenCalled();
  });
});

describe('signal-info header bar', () => {
  beforeEach(() => {
    preferencesStore.platform_preferences_by_uuid[PLATFORM_UUID] = {
      trade_margin: 12.5,
      trade_leverage: 20,
      trade_stop_loss_percent: 5,
      trade_take_profit_percent: 2.5,
      trade_treiling_stop_percent: 3,
    };
    setTokenLevel(TradeTokenLevel.TRADE_AVAILABLE);
  });

  test('hidden until a card is looked at; shows TM, TL, TP, SL, TS linking to /trade_preferences', async () => {
    pushSignals(byUuid(makeSignal()));
    renderSession();
    expect(screen.queryByTestId('signal-info-bar')).toBeNull();
    fireEvent.mouseEnter(screen.getByTestId('signal-card'));
    await advance(0);
    const bar = screen.getByTestId('signal-info-bar');
    expect(within(bar).getByTestId('signal-info-TM')).toHaveTextContent('TM12.50 $');
    expect(within(bar).getByTestId('signal-info-TL')).toHaveTextContent('TL×20');
    expect(within(bar).getByTestId('signal-info-TP')).toHaveTextContent('TP2.50 %');
    expect(within(bar).getByTestId('signal-info-SL')).toHaveTextContent('SL5.00 %');
    expect(within(bar).getByTestId('signal-info-TS')).toHaveTextContent('TS3.00 %');
    for (const link of within(bar).getAllByRole('link'))
      expect(link).toHaveAttribute('href', '/trade_preferences');
    fireEvent.click(within(bar).getByTestId('signal-info-SL'));
    await advance(0);
    expect(screen.getByTestId('location')).toHaveTextContent('/trade_preferences');
  });

  test('stays 2 s after the info disappears, then hides', async () => {
    pushSignals(byUuid(makeSignal()));
    renderSession();
    fireEvent.mouseEnter(screen.getByTestId('signal-card'));
    await advance(0);
    fireEvent.mouseLeave(screen.getByTestId('signal-card'));
    await advance(0);
    await advance(SIGNAL_INFO_HIDE_DELAY_MS - 1);
    expect(screen.getByTestId('signal-info-bar')).toBeInTheDocument();
    await advance(1);
    expect(screen.queryByTestId('signal-info-bar')).toBeNull();
  });

  test('stays while the pointer is on it, and hides 2 s after it leaves', async () => {
    pushSignals(byUuid(makeSignal()));
    renderSession();
    fireEvent.mouseEnter(screen.getByTestId('signal-card'));
    await advance(0);
    fireEvent.mouseLeave(screen.getByTestId('signal-card'));
    await advance(500);
    fireEvent.mouseEnter(screen.getByTestId('signal-info-bar'));
    await advance(10_000);
    expect(screen.getByTestId('signal-info-bar')).toBeInTheDocument();
    fireEvent.mouseLeave(screen.getByTestId('signal-info-bar'));
    await advance(SIGNAL_INFO_HIDE_DELAY_MS);
    expect(screen.queryByTestId('signal-info-bar')).toBeNull();
  });

  test('a card removed under the pointer (traded, expired) takes its info with it after 2 s', async () => {
    const signal = makeSignal();
    pushSignals(byUuid(signal));
    renderSession();
    fireEvent.mouseEnter(screen.getByTestId('signal-card'));
    await advance(0);
    expect(screen.getByTestId('signal-info-bar')).toBeInTheDocument();
    act(() => removeSignal(signal.signal_uuid));
    await advance(0);
    expect(screen.queryByTestId('signal-card')).toBeNull();
    await advance(SIGNAL_INFO_HIDE_DELAY_MS);
    expect(screen.queryByTestId('signal-info-bar')).toBeNull();
  });

  test('the chips are coloured by the token level', async () => {
    setTokenLevel(TradeTokenLevel.NO_TRADE_TOKEN);
    pushSignals(byUuid(makeSignal()));
    renderSession();
    fireEvent.focus(screen.getByTestId('signal-trade'));
    await advance(0);
    expect(screen.getByTestId('signal-info-TM')).toHaveClass('palette-red');
  });
});
