// No secret reaches the log: passwords, PINs, exchange credentials, the user's token key, bearer and
// websocket tokens, whether they arrive in headers, bodies or URLs (issue 5).
import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../paper-exchange/src/index';
import { PAPER_PLATFORM_UUID } from './platforms';
import { REDACTED, createLogger, redactUrl } from './logger';
import { TEST_PASSWORD, createTestApp, signUpAndLogIn, type TestApp } from '../../test/test-app';

let lines: string[];
let exchange: PaperExchangeHandle;
let t: TestApp;

beforeAll(async () => {
  lines = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  exchange = await startPaperExchange({ port: 0, seed: 13 });
  t = await createTestApp({ exchange, logger: createLogger('trace', sink) });
});
afterAll(async () => {
  await t?.close();
  await exchange?.close();
});

describe('log redaction', () => {
  it('keeps every secret of a whole session out of the log', async () => {
    const user = await signUpAndLogIn(t.app);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me/', headers: user.headers });
    const key = me.json().result.user_trade_token_key as string;
    const { api_key, api_secret } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/paper_exchange/create_account/',
        headers: user.headers,
      })
    ).json().result;
    const pin = 'Zq9!k';
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: user.headers, payload });
    await post('/api/trade_token/create_trade_token/', {
      api_key,
      api_secret,
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: pin,
    });
    await post('/api/account_balance/get_account_balance/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: pin,
    });
    await post('/api/account_balance/get_account_balance/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: 'bad!!',
    });
    await post('/api/trade_token/create_trade_token/', {
      api_key,
      api_secret,
      platform_uuid: 'x',
      pin_code: pin,
    });
    const ws = await t.app.inject({
      method: 'GET',
      url: '/api/auth/create_websocket_token/',
      headers: user.headers,
    });
    const wsToken = ws.json().result.token as string;
    await t.app.inject({ method: 'GET', url: `/api/ws_core/${wsToken}` });

    const log = lines.join('');
    expect(log).toContain('request completed');
    for (const secret of [
      TEST_PASSWORD,
      user.accessToken,
      user.refreshCookie,
      key,
      api_key,
      api_secret,
      pin,
      wsToken,
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it('redacts secret fields wherever a log line carries them', () => {
    const captured: string[] = [];
    const logger = createLogger('info', {
      write: (line: string) => void captured.push(line),
    });
    logger.info(
      { body: { api_secret: 's3cr3t', pin_code: '11111', nested: { user_password: 'pw' } } },
      'event',
    );
    const line = captured.join('');
    expect(line).not.toMatch(/s3cr3t|11111|"pw"/);
    expect(line).toContain(REDACTED);
  });

  it('cuts the parameters of a failed query out of a logged error', () => {
    const captured: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void captured.push(line) });
    const error = new DrizzleQueryError(
      'insert into "users" values ($1, $2)',
      ['a@b.co', 'f00dfeedkey'],
      new Error('x'),
    );
    logger.error({ err: error }, 'unhandled error');
    const line = captured.join('');
    expect(line).toContain('insert into');
    expect(line).not.toContain('f00dfeedkey');
  });

  it('redacts the websocket token in URLs', () => {
    expect(redactUrl('/api/ws_core/abc.DEF-123?x=1')).toBe(`/api/ws_core/${REDACTED}?x=1`);
    expect(redactUrl('/api/auth/me/')).toBe('/api/auth/me/');
  });

  it('redacts by the route that matched, whatever the spelling of the path (issue 34)', () => {
    expect(redactUrl('/api/ws%5Fcore/abc.DEF-123', '/api/ws_core/:token')).toBe(`/api/ws_core/${REDACTED}`);
    expect(redactUrl('/api/ws%5fcore/abc.DEF-123')).toBe(`/api/ws_core/${REDACTED}`);
    expect(
      redactUrl(
        '/api/exchange%5Frelay/p/fapi/v2/account?timestamp=1&signature=ab',
        '/api/exchange_relay/:platform_uuid/fapi/v2/account',
      ),
    ).toBe('/api/exchange%5Frelay/p/fapi/v2/account');
    expect(redactUrl('/api/exchange%5frelay/p/fapi/v2/account?signature=ab')).toBe(
      '/api/exchange%5frelay/p/fapi/v2/account',
    );
  });
});
