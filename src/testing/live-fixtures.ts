// Wire-shaped fixtures of the live data (contracts/ws, contracts/signals) for the SPA tests.
import type { Signal, SymbolPriceBase } from '../../contracts';
import type { CurrentUser } from '../../contracts/auth';
import type { Platform } from '../../contracts/platforms';

export const PLATFORM_UUID = '11111111-1111-4111-8111-111111111111';
export const BTC_UUID = '44444444-4444-4444-8444-444444444444';
export const ETH_UUID = '55555555-5555-4555-8555-555555555555';
export const NEURON_UUID = 'a1b2c3d4-0000-4000-8000-000000000001';

let counter = 0;

/** A signal with an increasing uuid; fields may be overridden. */
export function makeSignal(overrides: Partial<Signal> = {}): Signal {
  counter += 1;
  const suffix = String(counter).padStart(12, '0');
  return {
    signal_uuid: `99999999-9999-4999-8999-${suffix}`,
    platform_uuid: PLATFORM_UUID,
    platform: {
      platform_uuid: PLATFORM_UUID,
      platform_name: 'Paper Futures',
      platform_background: '#7e57c2',
    },
    symbol: { symbol_uuid: BTC_UUID, symbol_name: 'BTC', symbol_pair: 'BTCUSDT', symbol_price_precision: 1 },
    signal_direction_created: 'BUY',
    signal_price_enter: 97123.45,
    signal_accuracy: 0.67891,
    trend_moment: 1,
    neuron: { neuron_uuid: NEURON_UUID, neuron_tag_name: 'momentum-5m' },
    signal_created_at: new Date(Date.UTC(2026, 10, 22, 7, 0, counter)).toISOString(),
    ...overrides,
  };
}

export function byUuid(...signals: Signal[]): Record<string, Signal> {
  return Object.fromEntries(signals.map((signal) => [signal.signal_uuid, signal]));
}

export function makePrice(overrides: Partial<SymbolPriceBase> = {}): SymbolPriceBase {
  return {
    symbol_uuid: BTC_UUID,
    symbol_name: 'BTC',
    symbol_pair: 'BTCUSDT',
    current_price: 97123.4,
    trend_moment: 1,
    ...overrides,
  };
}

/** The logged-in trader, whose token key is `userTradeTokenKey`. */
export function makeTrader(userTradeTokenKey: string): CurrentUser {
  return {
    user_uuid: '22222222-2222-4222-8222-222222222222',
    user_email: 'trader@example.com',
    user_nickname: 'trader',
    user_trade_token_key: userTradeTokenKey,
  };
}

/** The paper platform (PLATFORM_UUID) at level TRADE_AVAILABLE, as the platform list gives it. */
export function makePaperPlatform(overrides: Partial<Platform> = {}): Platform {
  return {
    platform_uuid: PLATFORM_UUID,
    platform_name: 'Paper Futures',
    platform_background: '#123456',
    level: 3,
    trade_leverage_max: 50,
    platform_url: 'http://127.0.0.1:8081',
    platform_allows_browser: true,
    ...overrides,
  };
}
