// /api/trade_server/* (SPEC.md §4 "Opening a trade", "Closing a trade", server mode; §7): the server opens
// the trade token with the PIN and runs the shared exchange steps (shared-core/trade-flow.ts) itself.
// Opening stores the trade first (phase 'opening'; one trade per signal and user), so a retried create can
// never open a second position; what the exchange answered decides what is kept (docs/decisions.md "Trading").
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findFollowedAccount, followAccount } from '../../services/followed-accounts';
import {
  OpenFailureText,
  TradeError,
  TradeStatus,
  TradeTokenMessage,
  closeServerTradeBody,
  createServerTradeBody,
  errorBody,
  exitsHeldByExchange,
  tradeAnswer,
} from '../../../../contracts';
import { ExchangeError } from '../../../../shared-core/exchange-client';
import { serverExchangeClient } from '../../services/exchange-transport';
import {
  OpenFailure,
  TradeOpenError,
  clientOrderIds,
  closePosition,
  openPosition,
  type ClosedPosition,
  type OpenedPosition,
} from '../../../../shared-core/trade-flow';
import type { TradeRow } from '../../db/schema-trades';
import { bearerSecurity } from '../../services/access-token';
import { HttpError } from '../../http-error';
import { exchangeHttpError } from '../../http-error';
import { KeyedQueue, assertWithinRiskLimits } from '../../services/risk-limits';
import { TradeTokenAccess } from '../../services/trade-token-access';
import { WrongPinError, touchTradeToken } from '../../services/trade-tokens';
import {
  READY_PHASE,
  TRADE_ALREADY_CLOSED,
  DUPLICATE_TRADE,
  announceTradeWrite,
  assertSymbolFree,
  OPENING_PHASE,
  TRADE_STILL_OPENING,
  calculatedOf,
  deleteTrade,
  insertTrade,
  toWireTrade,
  tradeForSignal,
  tradeOrigin,
  updateTrade,
  userTradeOr404,
} from '../../services/trades';
import { openingCostColumns } from '../../services/trade-costs';
import { getTradePreferences } from '../../services/preferences';

const responses = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  429: errorBody,
  502: errorBody,
};

export const tradeServerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const access = new TradeTokenAccess(app.db, app.secretBox, app.clock);
  const desk = app.tradeDesk;
  /** Each trader's limit check and new row, one open at a time (services/risk-limits.ts). */
  const opening = new KeyedQueue();

  /**
   * A token saved before issue 37 has no followed key yet: its first use with the PIN stores it (when the key is
   * bound to the trader), in the background, so that the account is followed while the trader is away.
   */
  const followed = new Set<string>();
  const followSavedKey = (userUuid: string, platformUuid: string, apiKey: string) => {
    const key = `${userUuid}:${platformUuid}`;
    if (followed.has(key)) return;
    followed.add(key);
    void (async () => {
      if (await findFollowedAccount(app.db, userUuid, platformUuid)) return;
      await followAccount(app.db, app.secretBox, {
        user_uuid: userUuid,
        platform_uuid: platformUuid,
        api_key: apiKey,
      });
    })().catch((error: unknown) => {
      followed.delete(key);
      app.log.warn({ message: (error as Error).message }, 'trades: the followed key could not be stored');
    });
  };

  /** The exchange client of the user's server-mode token; a wrong PIN is 403 (as account_balance). */
  const clientFor = async (userUuid: string, platformUuid: string, pinCode: string) => {
    try {
      const opened = await access.open(userUuid, platformUuid, pinCode);
      const client = serverExchangeClient(opened.platform.base_url, opened.content, userUuid);
      followSavedKey(userUuid, platformUuid, opened.content.api_key);
      return { client, tokenUuid: opened.row.trade_token_uuid };
    } catch (error) {
      if (error instanceof WrongPinError) throw new HttpError(403, TradeTokenMessage.WRONG_PIN_CODE);
      throw error;
    }
  };

  app.post(
    '/create_trade/',
    {
      schema: {
        tags: ['trade_server'],
        summary: 'Open a trade on the exchange with the server-mode trade token',
        security: bearerSecurity,
        body: createServerTradeBody,
        response: { 201: tradeAnswer, ...responses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const userUuid = request.userUuid;
      const [origin, earlier, preferences] = await Promise.all([
        tradeOrigin(app.db, body.signal_uuid, body.trade_leverage),
        tradeForSignal(app.db, userUuid, body.signal_uuid),
        getTradePreferences(app.db, userUuid),
      ]);
      if (earlier && !desk.reconciler.isDeadOpen(earlier.trade)) {
        throw new HttpError(
          409,
          earlier.trade.trade_phase === OPENING_PHASE ? TRADE_STILL_OPENING : DUPLICATE_TRADE,
        );
      }
      // The risk limits refuse a new trade before the PIN is tried or the exchange called (checked again
      // below, with the row stored under the trader's queue); completing an earlier open is no new trade.
      if (!earlier) await assertWithinRiskLimits(app.db, userUuid, app.clock());
      await assertSymbolFree(app.db, userUuid, origin, { unlessServerExitsHeld: true });
      const { client, tokenUuid } = await clientFor(userUuid, origin.platform.platform_uuid, body.pin_code);
      if (earlier) {
        // The earlier open of this signal died (a restart in the middle): settled now, not by the next
        // reconciliation. Its position, when it has one, is this trade; otherwise the signal is opened afresh.
        const settled = await desk.reconciler.settleDeadOpen(earlier, client);
        if (settled.state === 'closed') throw new HttpError(409, DUPLICATE_TRADE);
        if (settled.state === 'unsettled') throw new HttpError(409, TRADE_STILL_OPENING);
        if (settled.state === 'open') {
          const live = desk.monitor.calculated(settled.row.trade_uuid);
          reply.status(201);
          return { result: toWireTrade(settled.row, origin.symbol, live) };
        }
      }
      // Exits an earlier trade on the symbol left on the exchange would act on the new position (issue 35).
      await settleLeftoverExits(userUuid, origin, client);
      const row = await opening.run(userUuid, async () => {
        // Again under the queue, and under the trader's lock in the database (issue 52): the queue is this
        // process's, the lock every instance's. An open that passed the check above beside another, here or on
        // another instance, may not pass it now; the lock is held for the check and the insert only.
        const inserted = await app.db.transaction(async (tx) => {
          await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`trade-open:${userUuid}`}))`);
          if (!earlier) await assertWithinRiskLimits(tx, userUuid, app.clock());
          await assertSymbolFree(tx, userUuid, origin);
          return insertTrade(tx, {
            user_uuid: userUuid,
            origin,
            settings: body,
            trade_in_server_side: 1,
            opening_order_id: clientOrderIds(body.signal_uuid).open,
            now: desk.now(),
          });
        });
        // Told after the commit: the readers of this process cache by the database handle.
        announceTradeWrite(app.db, userUuid);
        return inserted;
      });

      let opened: OpenedPosition;
      try {
        opened = await openPosition(client, {
          symbol_pair: origin.symbol.symbol_pair,
          trade_direction: row.trade_direction === 'SELL' ? 'SELL' : 'BUY',
          trade_margin: body.trade_margin,
          trade_leverage: body.trade_leverage,
          trade_stop_loss_percent: body.trade_stop_loss_percent,
          symbol_price_precision: origin.symbol.symbol_price_precision,
          symbol_quantity_precision: origin.symbol.symbol_quantity_precision,
          signal_uuid: body.signal_uuid,
          ...(preferences.trade_exits_on_exchange === 1 && {
            exits: {
              trade_take_profit_percent: body.trade_take_profit_percent,
              trade_treiling_stop_percent: body.trade_treiling_stop_percent,
            },
          }),
        });
      } catch (error) {
        throw await openFailure(row, error);
      } finally {
        await touchTradeToken(app.db, tokenUuid);
      }

      const stored = await updateTrade(app.db, row.trade_uuid, {
        trade_phase: READY_PHASE,
        trade_open_price: opened.trade_open_price,
        trade_quantity: opened.trade_quantity,
        trade_current_price: opened.trade_open_price,
        trade_order_id: opened.trade_order_id,
        trade_stop_order_id: opened.trade_stop_order_id,
        trade_stop_price: opened.trade_stop_price,
        trade_exits: opened.exits ?? null,
        trade_backstop: opened.trade_backstop ?? null,
        // What the exchange told after the MARKET order: commission, maintenance bracket, liquidation (issue 18).
        ...openingCostColumns(
          {
            trade_direction: row.trade_direction === 'SELL' ? 'SELL' : 'BUY',
            trade_open_price: opened.trade_open_price,
            trade_quantity: opened.trade_quantity,
            trade_leverage: row.trade_leverage,
          },
          opened,
          origin.symbol.symbol_price_precision,
        ),
        // Open without its exchange-side stop (placing it and closing again both failed): the SPA warns.
        trade_error: opened.trade_stop_order_id ? null : TradeError.STOP_MISSING,
      });
      if (!stored) throw new HttpError(409, 'The trade was removed while it was opening');
      desk.monitor.watch({ ...stored, symbol_pair: origin.symbol.symbol_pair });
      const live = desk.monitor.calculated(stored.trade_uuid);
      // Every socket of the owner learns of the new trade, also a page whose request timed out meanwhile (the
      // exchange calls can take longer than the SPA waits) and the owner's other tabs: they read the list again.
      desk.announceOpen(stored, origin.symbol.symbol_pair, live ?? calculatedOf(stored));
      reply.status(201);
      return { result: toWireTrade(stored, origin.symbol, live) };
    },
  );

  /**
   * The trader's earlier trades on the symbol whose exits the exchange holds, checked before the new open: one
   * the exchange closed is recorded and its leftover exits cancelled (TradeReconciler.settleExitsBeforeOpen). A
   * failure is answered as the open's would be: the new position is not opened beside exits that may act on it.
   */
  async function settleLeftoverExits(
    userUuid: string,
    origin: Awaited<ReturnType<typeof tradeOrigin>>,
    client: ReturnType<typeof serverExchangeClient>,
  ): Promise<void> {
    try {
      await desk.reconciler.settleExitsBeforeOpen(
        userUuid,
        origin.platform.platform_uuid,
        origin.symbol.symbol_uuid,
        client,
      );
    } catch (error) {
      if (error instanceof ExchangeError) throw exchangeHttpError(error);
      throw error;
    }
  }

  /** What is kept of an open that failed, and the HttpError that tells the trader. */
  async function openFailure(row: TradeRow, error: unknown): Promise<Error> {
    const tradeUuid = row.trade_uuid;
    if (error instanceof TradeOpenError && error.failure === OpenFailure.ORDER_UNCONFIRMED) {
      // The position may exist: keep the trade for Repair (delete_trade_errors) to reconcile.
      await updateTrade(app.db, tradeUuid, {
        trade_phase: READY_PHASE,
        trade_error: TradeError.OPEN_INCOMPLETE,
        trade_open_price: error.partial.trade_open_price ?? null,
        trade_quantity: error.partial.trade_quantity ?? null,
        trade_order_id: error.partial.trade_order_id ?? row.trade_order_id,
        trade_stop_order_id: error.partial.trade_stop_order_id ?? null,
        trade_stop_price: error.partial.trade_stop_price ?? null,
      });
      return new HttpError(502, OpenFailureText.orderUnconfirmed(error.cause.message));
    }
    await deleteTrade(app.db, tradeUuid);
    if (error instanceof TradeOpenError) {
      return new HttpError(400, OpenFailureText.stopRefused(error.cause.message));
    }
    if (error instanceof ExchangeError) return exchangeHttpError(error);
    return error instanceof Error ? error : new Error(String(error));
  }

  app.post(
    '/close_trade/',
    {
      schema: {
        tags: ['trade_server'],
        summary: 'Close a server-mode trade on the exchange and record its realized PNL',
        security: bearerSecurity,
        body: closeServerTradeBody,
        response: { 200: tradeAnswer, ...responses },
      },
    },
    async (request) => {
      const { trade_uuid, trade_status, pin_code } = request.body;
      const first = await userTradeOr404(app.db, request.userUuid, trade_uuid);
      if (first.trade.trade_status !== TradeStatus.OPEN) throw new HttpError(409, TRADE_ALREADY_CLOSED);
      if (first.trade.trade_in_server_side !== 1) {
        throw new HttpError(
          400,
          'This trade was opened in client mode: close it with /trade_client/close_trade/',
        );
      }
      const { client, tokenUuid } = await clientFor(request.userUuid, first.trade.platform_uuid, pin_code);
      return desk.exclusively(trade_uuid, async () => {
        // Read again under the lock: a close that finished meanwhile must not send a second order.
        const found = await userTradeOr404(app.db, request.userUuid, trade_uuid);
        if (found.trade.trade_status !== TradeStatus.OPEN) throw new HttpError(409, TRADE_ALREADY_CLOSED);
        let closed: ClosedPosition;
        try {
          closed = await closePosition(client, {
            symbol_pair: found.symbol.symbol_pair,
            trade_direction: found.trade.trade_direction === 'SELL' ? 'SELL' : 'BUY',
            trade_quantity: found.trade.trade_quantity!,
            trade_leverage: found.trade.trade_leverage,
            trade_stop_order_id: found.trade.trade_stop_order_id,
            trade_order_id: found.trade.trade_order_id,
            trade_status,
            trade_exits_held: exitsHeldByExchange(found.trade.trade_exits),
          });
        } catch (error) {
          if (error instanceof ExchangeError) throw exchangeHttpError(error);
          throw error;
        } finally {
          await touchTradeToken(app.db, tokenUuid);
        }
        const row = await desk.recordClose(
          found,
          closed.trade_status,
          closed.trade_close_price ?? desk.currentPriceOf(found),
          closed.trade_close_price ? closed.trade_close_commission : undefined,
          // The page that asked tells its trader.
          { trade_close_announced: true },
        );
        if (!row) throw new HttpError(409, TRADE_ALREADY_CLOSED);
        return { result: toWireTrade(row, found.symbol) };
      });
    },
  );
};
