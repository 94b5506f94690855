// Test helpers: a paper exchange on 127.0.0.1 with an ephemeral port, and a minimal Binance client that
// signs exactly the bytes it sends (query, body or both), so every authentication rule can be exercised.
import crypto from 'node:crypto';
import { startPaperExchange, type PaperExchangeHandle, type StartOptions } from '../src/index.js';

export async function startTestExchange(options: StartOptions = {}): Promise<PaperExchangeHandle> {
  return startPaperExchange({ port: 0, host: '127.0.0.1', tickMs: 250, seed: 7, historyDays: 3, ...options });
}

export interface BinanceResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export type Placement = 'query' | 'body' | 'mixed';

export interface SignOptions {
  placement?: Placement;
  contentType?: string;
  timestamp?: number;
  recvWindow?: number | null;
  /** Override the computed signature. */
  signature?: string;
  apiKey?: string | null;
}

export class TestClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
    private readonly sign: (payload: string) => string,
  ) {}

  static hmac(baseUrl: string, apiKey: string, secret: string): TestClient {
    return new TestClient(baseUrl, apiKey, (payload) =>
      crypto.createHmac('sha256', secret).update(payload).digest('hex'),
    );
  }

  static ed25519(baseUrl: string, apiKey: string, privateKey: crypto.KeyObject): TestClient {
    return new TestClient(baseUrl, apiKey, (payload) =>
      encodeURIComponent(crypto.sign(null, Buffer.from(payload), privateKey).toString('base64')),
    );
  }

  async public<T = unknown>(path: string, params: Record<string, string> = {}): Promise<BinanceResponse<T>> {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${this.baseUrl}${path}${query ? `?${query}` : ''}`);
    return { status: response.status, body: (await response.json()) as T, headers: response.headers };
  }

  async keyed<T = unknown>(
    method: string,
    path: string,
    params: Record<string, string> = {},
  ): Promise<BinanceResponse<T>> {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${this.baseUrl}${path}${query ? `?${query}` : ''}`, {
      method,
      headers: { 'X-MBX-APIKEY': this.apiKey },
    });
    return { status: response.status, body: (await response.json()) as T, headers: response.headers };
  }

  async signed<T = unknown>(
    method: string,
    path: string,
    params: Record<string, string> = {},
    options: SignOptions = {},
  ): Promise<BinanceResponse<T>> {
    const all: Record<string, string> = { ...params, timestamp: String(options.timestamp ?? Date.now()) };
    if (options.recvWindow !== null) all.recvWindow = String(options.recvWindow ?? 10000);
    const placement = options.placement ?? (method === 'GET' || method === 'DELETE' ? 'query' : 'body');
    let query = '';
    let body = '';
    const encoded = new URLSearchParams(all).toString();
    if (placement === 'query') query = encoded;
    else if (placement === 'body') body = encoded;
    else {
      const entries = Object.entries(all);
      const half = Math.ceil(entries.length / 2);
      query = new URLSearchParams(entries.slice(0, half)).toString();
      body = new URLSearchParams(entries.slice(half)).toString();
    }
    const signature = options.signature ?? this.sign(query + body);
    if (body) body += `&signature=${signature}`;
    else query += `&signature=${signature}`;
    const headers: Record<string, string> = {};
    if (options.apiKey !== null) headers['X-MBX-APIKEY'] = options.apiKey ?? this.apiKey;
    if (body || options.contentType)
      headers['Content-Type'] = options.contentType ?? 'application/x-www-form-urlencoded';
    const response = await fetch(`${this.baseUrl}${path}${query ? `?${query}` : ''}`, {
      method,
      headers,
      body: body || undefined,
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : undefined) as T,
      headers: response.headers,
    };
  }
}

export async function newAccount(handle: PaperExchangeHandle, balance = '10000'): Promise<TestClient> {
  const response = await fetch(`${handle.url}/admin/accounts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Admin-Token': handle.adminToken },
    body: JSON.stringify({ balance }),
  });
  const created = (await response.json()) as { api_key: string; api_secret: string };
  return TestClient.hmac(handle.url, created.api_key, created.api_secret);
}

export async function admin<T = unknown>(
  handle: PaperExchangeHandle,
  method: string,
  path: string,
  body?: unknown,
): Promise<BinanceResponse<T>> {
  const response = await fetch(`${handle.url}/admin${path}`, {
    method,
    headers: {
      'X-Admin-Token': handle.adminToken,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

export async function setPrice(
  handle: PaperExchangeHandle,
  symbol: string,
  price: string | null,
): Promise<void> {
  const response = await admin(handle, 'POST', '/price', { symbol, price });
  if (response.status !== 200) throw new Error(`setPrice failed: ${JSON.stringify(response.body)}`);
}

export function expectCode(response: BinanceResponse, status: number, code: number): void {
  const body = response.body as { code?: number; msg?: string };
  if (response.status !== status || body?.code !== code) {
    throw new Error(
      `expected HTTP ${status} code ${code}, got HTTP ${response.status} ${JSON.stringify(response.body)}`,
    );
  }
  if (typeof body.msg !== 'string') throw new Error('error without msg');
}
