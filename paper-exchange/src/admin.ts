// Admin endpoints under /admin/*: provisioning accounts (HMAC key pair or Ed25519 public key), transfers,
// the legacy conditional-order switch, faults, forced mark prices, symbol status and rate limits. Served to
// loopback callers only, never to a web page, and changes need the admin token (admin-guard.ts). Bodies are
// JSON; answers are JSON; errors are {code,msg}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { adminGuard } from './admin-guard.js';
import { ApiError, Errors } from './errors.js';
import type { Exchange } from './exchange.js';
import { FaultConfigSchema } from './faults.js';
import { DAY_MS } from './market/history.js';
import { findSymbol, SYMBOLS } from './market/symbols.js';
import { D, parseDecimal } from './num.js';
import { roePercent } from './positions.js';
import type { AccountRecord } from './state.js';
import { money } from './views.js';

const DEFAULT_BALANCE = '10000';

const Amount = z.string().refine((text) => parseDecimal(text) !== undefined, 'a decimal number as a string');
const CreateAccount = z.object({ balance: Amount.optional() }).strict();
const CreateEd25519 = z.object({ public_key_pem: z.string().min(1), balance: Amount.optional() }).strict();
const Transfer = z.object({ amount: Amount }).strict();
const AccountSettings = z.object({ legacyConditionalOrders: z.boolean().nullable() }).strict();
const Price = z.object({ symbol: z.string(), price: Amount.nullable() }).strict();
const SymbolStatus = z
  .object({
    status: z.enum([
      'TRADING',
      'PENDING_TRADING',
      'PRE_DELIVERING',
      'DELIVERING',
      'DELIVERED',
      'SETTLING',
      'CLOSE',
    ]),
  })
  .strict();
const Limits = z
  .object({
    requestWeightPerMinute: z.number().int().positive().optional(),
    ordersPerMinute: z.number().int().positive().optional(),
    ordersPer10s: z.number().int().positive().optional(),
    requestsAfter429: z.number().int().nonnegative().optional(),
    banSeconds: z.number().int().positive().optional(),
  })
  .strict();

function body<T>(schema: z.ZodType<T>, request: FastifyRequest): T {
  let json: unknown = {};
  const raw = request.rawBody?.trim();
  if (raw) {
    try {
      json = JSON.parse(raw);
    } catch {
      throw new ApiError(-1130, 'Body is not valid JSON.');
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError(
      -1130,
      `Invalid body: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(),
    );
  }
  return parsed.data;
}

function accountByKey(exchange: Exchange, apiKey: string): AccountRecord {
  const account = exchange.accounts.findByApiKey(apiKey);
  if (!account) throw new ApiError(-2015, 'Unknown API key.', 404);
  return account;
}

function symbolOf(name: string): string {
  const spec = findSymbol(name.toUpperCase());
  if (!spec) throw Errors.badSymbol();
  return spec.symbol;
}

/** What the exchange's UI would show: balances and every position with PNL, ROE (§12) and liquidation price. */
function accountSummary(exchange: Exchange, account: AccountRecord) {
  const metrics = exchange.core.metrics(account);
  return {
    account_id: account.id,
    api_key: account.apiKey,
    key_type: account.keyType,
    dualSidePosition: account.dualSidePosition,
    legacyConditionalOrders: exchange.core.legacyFor(account),
    walletBalance: money(metrics.wallet),
    marginBalance: money(metrics.marginBalance),
    availableBalance: money(metrics.available),
    positions: metrics.positions.map((p) => ({
      symbol: p.record.symbol,
      positionSide: p.record.positionSide,
      marginType: p.settings.marginType,
      leverage: p.settings.leverage,
      positionAmt: p.amt.toString(),
      entryPrice: money(p.entry),
      markPrice: money(p.mark),
      unRealizedProfit: money(p.pnl),
      initialMargin: money(p.initialMargin),
      roePercent: roePercent(p.pnl, p.initialMargin).toFixed(2),
      maintMargin: money(p.maint.margin),
      liquidationPrice: money(p.liquidationPrice),
    })),
    openOrders: exchange.core.openOrdersOf(account.id).length,
    openAlgoOrders: exchange.core.openAlgosOf(account.id).length,
  };
}

export function registerAdmin(app: FastifyInstance, exchange: Exchange): void {
  app.register(
    async (admin) => {
      admin.addHook('onRequest', adminGuard(exchange.adminToken));
      admin.addHook('onSend', async () => exchange.commit());

      admin.post('/accounts', async (request) => {
        const { balance = DEFAULT_BALANCE } = body(CreateAccount, request);
        const { account, apiSecret } = exchange.createAccount(balance);
        return {
          account_id: account.id,
          api_key: account.apiKey,
          api_secret: apiSecret,
          balance: new D(balance).toFixed(8),
        };
      });

      admin.post('/accounts/ed25519', async (request) => {
        const { public_key_pem: pem, balance = DEFAULT_BALANCE } = body(CreateEd25519, request);
        let account: AccountRecord;
        try {
          account = exchange.createEd25519Account(pem, balance);
        } catch (error) {
          throw new ApiError(-1130, `Invalid Ed25519 public key: ${(error as Error).message}`);
        }
        return { account_id: account.id, api_key: account.apiKey, balance: new D(balance).toFixed(8) };
      });

      admin.get<{ Params: { apiKey: string } }>('/accounts/:apiKey', async (request) =>
        accountSummary(exchange, accountByKey(exchange, request.params.apiKey)),
      );

      admin.post<{ Params: { apiKey: string } }>('/accounts/:apiKey/transfer', async (request) => {
        const account = accountByKey(exchange, request.params.apiKey);
        exchange.transfer(account, new D(body(Transfer, request).amount));
        return { api_key: account.apiKey, walletBalance: new D(account.walletBalance).toFixed(8) };
      });

      admin.post<{ Params: { apiKey: string } }>('/accounts/:apiKey/settings', async (request) => {
        const account = accountByKey(exchange, request.params.apiKey);
        account.legacyConditionalOrders = body(AccountSettings, request).legacyConditionalOrders;
        exchange.store.touch('accounts', account.id);
        return { api_key: account.apiKey, legacyConditionalOrders: exchange.core.legacyFor(account) };
      });

      admin.get<{ Querystring: { account?: string; since?: string } }>('/requests', async (request) => {
        const { account = '', since } = request.query;
        return { requests: exchange.requests.of(account, Number(since) || 0) };
      });

      admin.get('/faults', async () => exchange.faults.describe());
      admin.post('/faults', async (request) => exchange.faults.set(body(FaultConfigSchema, request)));
      admin.delete<{ Querystring: { account?: string } }>('/faults', async (request) => {
        exchange.faults.clear(request.query.account);
        return exchange.faults.describe();
      });

      admin.post('/price', async (request) => {
        const { symbol: name, price } = body(Price, request);
        const symbol = symbolOf(name);
        exchange.setPrice(symbol, price === null ? undefined : new D(price));
        return { symbol, markPrice: exchange.market.mark(symbol).toFixed(8), pinned: price !== null };
      });

      admin.post<{ Params: { symbol: string } }>('/symbols/:symbol/status', async (request) => {
        const symbol = symbolOf(request.params.symbol);
        exchange.setSymbolStatus(symbol, body(SymbolStatus, request).status);
        return { symbol, status: exchange.market.status(symbol) };
      });

      admin.post('/limits', async (request) => {
        Object.assign(exchange.limiter.limits, body(Limits, request));
        return exchange.limiter.limits;
      });

      admin.post('/legacy-conditional-orders', async (request) => {
        const { enabled } = body(z.object({ enabled: z.boolean() }).strict(), request);
        exchange.core.legacyConditionalDefault = enabled;
        return { legacyConditionalOrders: enabled };
      });

      admin.get('/market', async () => ({
        seed: exchange.seed,
        originTime: exchange.originTime,
        historyEndTime: exchange.historyEndTime,
        historyDays: (exchange.historyEndTime - exchange.originTime) / DAY_MS,
        marks: Object.fromEntries(
          SYMBOLS.map((spec) => [spec.symbol, exchange.market.mark(spec.symbol).toFixed(8)]),
        ),
      }));
    },
    { prefix: '/admin' },
  );
}
