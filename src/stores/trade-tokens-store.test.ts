// A new key's account read that failed (issue 36, 53): only an exchange's answer refuses a key; an exchange
// not reached says so and proves nothing about it.
import { expect, test } from 'vitest';
import { ExchangeError, ExchangeFailure } from '../../shared-core/exchange-client';
import { ApiError, ApiErrorKind } from '../lib/api-client';
import { TradeTokenError, keyReadFailure } from './trade-tokens-store';

test('refused only when the exchange answered so; a time-out or no connection is "not reached"', () => {
  const refused = keyReadFailure(
    new ExchangeError('getAccount', ExchangeFailure.EXCHANGE, 'API-key format invalid.', -2014, 401),
  );
  expect(refused).toEqual(new TradeTokenError('trade_token.key_refused', 'API-key format invalid.'));
  expect((refused as TradeTokenError).exchangeText).toBe('API-key format invalid.');
  for (const failure of [ExchangeFailure.TIMEOUT, ExchangeFailure.FETCH, ExchangeFailure.PARSING]) {
    const unreached = keyReadFailure(new ExchangeError('getAccount', failure, 'Timeout'));
    expect((unreached as TradeTokenError).key, failure).toBe('trade_token.key_unreached');
  }
  // Our own server's failure stays as it is (translated by the form as any API error).
  const ours = new ApiError(ApiErrorKind.FETCH_ERROR, 'fetch failed');
  expect(keyReadFailure(ours)).toBe(ours);
});
