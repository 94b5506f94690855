// A malformed API key is the field's 400 (issue 52): a key with a line break (`abc\r\nX-Injected: 1`) or in
// Cyrillic could never be sent as the X-MBX-APIKEY header, and was answered 502 "The exchange could not be
// reached". Every endpoint that takes an api_key now refuses it with the contract's message, and so does the
// relay for such a header, sent byte for byte over a real socket.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_CHARACTERS } from '../../../../contracts';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { PAPER_PLATFORM_UUID } from '../../services/platforms';
import { createTestApp, signUpAndLogIn, type TestApp } from '../../../test/test-app';

let exchange: PaperExchangeHandle;
let t: TestApp;
let port: number;
let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;
beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 52 });
  t = await createTestApp({ exchange });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  trader = await signUpAndLogIn(t.app, 'keys');
});
afterAll(async () => {
  await t?.close();
  await exchange?.close();
});

const MALFORMED = ['abc\r\nX-Injected: 1', 'ключ-до-біржі', 'two words', 'tab\there'];

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: trader.headers, payload });

describe('a malformed API key is a 400 with the field message', () => {
  it.each(MALFORMED)('create_trade_token and follow_account refuse %j', async (api_key) => {
    const created = await post('/api/trade_token/create_trade_token/', {
      api_key,
      api_secret: 'secret',
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: '13579',
    });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json()).toEqual({ detail: `api_key: ${API_KEY_CHARACTERS}` });
    const followed = await post('/api/trade_token/follow_account/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      api_key,
    });
    expect(followed.statusCode, followed.body).toBe(400);
    expect(followed.json()).toEqual({ detail: `api_key: ${API_KEY_CHARACTERS}` });
  });

  it('a key longer than any exchange makes is refused too; the secret keeps its free form', async () => {
    const long = await post('/api/trade_token/create_trade_token/', {
      api_key: 'k'.repeat(257),
      api_secret: 'secret',
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: '13579',
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toMatch(/^api_key: /);
  });

  it('the relay answers 400 for a Cyrillic X-MBX-APIKEY header sent as raw bytes', async () => {
    const path = `/api/exchange_relay/${PAPER_PLATFORM_UUID}/fapi/v2/account?timestamp=1&signature=ab`;
    const head = Buffer.concat([
      Buffer.from(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
          `Authorization: ${trader.headers.authorization}\r\nX-MBX-APIKEY: `,
      ),
      Buffer.from('ключ', 'utf8'),
      Buffer.from('\r\n\r\n'),
    ]);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { detail: string };
    expect(body.detail).toContain(API_KEY_CHARACTERS);
  });
});
