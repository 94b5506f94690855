// GET /api/trade_preferences/get_what_if/ (issue 42; docs/server.md "The what-if replay"): what the stored signals
// of a range (default the last 30 days) would have done with the trader's settings on a platform — the saved
// ones, with any query field in place of its saved value. Fair to the server:
// - the replay runs in a worker thread (services/worker-pool.ts), never on the event loop; the data is read a day
//   at a time and kept (engine/what-if-data.ts);
// - an answer is kept for (platform, settings, range, data version): the same question costs a lookup;
// - each trader has one replay running at most, WHAT_IF_AT_ONCE run at once (one per worker) and up to
//   WHAT_IF_WAITING wait in arrival order (services/work-slots.ts); beyond, 429;
// - a trader's same question asked again while its replay waits or runs (a page reloaded, or one that stopped
//   waiting at its request timeout and asks again) waits for that replay instead of being refused or starting
//   another: the question is the trader, the platform, the settings and the range as asked (an open range's last
//   minute moves, so the minute is not part of it).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import {
  errorBody,
  WHAT_IF_DEFAULT_DAYS,
  WHAT_IF_MAX_DAYS,
  WHAT_IF_RANGE_TOO_LONG,
  whatIfAnswer,
  whatIfQuery,
  type WhatIfQuery,
  type WhatIfResult,
} from '../../../../contracts';
import { EXCHANGE_ORDER_FILTERS, type ReplaySettings } from '../../engine/trade-replay';
import { WhatIfStore } from '../../engine/what-if-data';
import { HttpError } from '../../http-error';
import { bearerSecurity } from '../../services/access-token';
import { findPlatform } from '../../services/platforms';
import { replaySettingsOf } from '../../engine/replay-settings';
import { HEAVY_WORKERS } from '../../services/worker-pool';
import { WorkSlots } from '../../services/work-slots';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Workers (and so replays at once): one per core but the event loop's, at most 2. */
export const WHAT_IF_AT_ONCE = HEAVY_WORKERS;
export const WHAT_IF_WAITING = 32;
const ANSWER_TTL_MS = 10 * 60_000;
export const WHAT_IF_RUNNING = 'Your replay is still running: try again when it is done';
export const WHAT_IF_BUSY = 'The server is busy with replays: try again in a few seconds';

/** The saved settings with the query's fields in place. */
function withQuery(saved: ReplaySettings, query: WhatIfQuery): ReplaySettings {
  const prefs = saved.preferences;
  return {
    preferences: {
      trade_margin: query.trade_margin ?? prefs.trade_margin,
      trade_leverage: query.trade_leverage ?? prefs.trade_leverage,
      trade_stop_loss_percent: query.trade_stop_loss_percent ?? prefs.trade_stop_loss_percent,
      trade_take_profit_percent: query.trade_take_profit_percent ?? prefs.trade_take_profit_percent,
      trade_treiling_stop_percent: query.trade_treiling_stop_percent ?? prefs.trade_treiling_stop_percent,
    },
    minimalAccuracy: query.minimal_accuracy ?? saved.minimalAccuracy,
    exitsOnExchange:
      query.trade_exits_on_exchange === undefined
        ? saved.exitsOnExchange
        : query.trade_exits_on_exchange === 1,
    maxOpenTrades: query.trade_max_open_trades ?? saved.maxOpenTrades,
    dailyLossLimit: query.trade_daily_loss_limit ?? saved.dailyLossLimit,
    takerRate: saved.takerRate,
  };
}

export const whatIfRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = new WhatIfStore(app.db, app.clock);
  const pool = app.heavyWork;
  const slots = new WorkSlots({
    atOnce: WHAT_IF_AT_ONCE,
    waiting: WHAT_IF_WAITING,
    running: WHAT_IF_RUNNING,
    busy: WHAT_IF_BUSY,
  });
  const answers = new LRUCache<string, WhatIfResult>({ max: 512, ttl: ANSWER_TTL_MS });
  /** The replays running, by the question as asked. */
  const running = new Map<string, Promise<WhatIfResult>>();

  app.get(
    '/get_what_if/',
    {
      schema: {
        tags: ['trade_preferences'],
        summary: 'What the signals of a range would have done with these settings (the what-if replay)',
        security: bearerSecurity,
        querystring: whatIfQuery,
        response: { 200: whatIfAnswer, 400: errorBody, 401: errorBody, 404: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const platform = await findPlatform(app.db, query.platform_uuid);
      if (!platform) throw new HttpError(404, `platform_uuid: unknown platform ${query.platform_uuid}`);
      if (query.trade_leverage !== undefined && query.trade_leverage > platform.trade_leverage_max) {
        throw new HttpError(400, `trade_leverage: Must be at most ${platform.trade_leverage_max}`);
      }
      // Whole minutes: a candle opens at the start and the range ends at the last whole minute.
      const nowMinute = Math.floor(app.clock() / MINUTE_MS) * MINUTE_MS;
      const toMs = Math.min(
        query.end_date ? Math.floor(Date.parse(query.end_date) / MINUTE_MS) * MINUTE_MS : nowMinute,
        nowMinute,
      );
      const fromMs = query.start_date
        ? Math.ceil(Date.parse(query.start_date) / MINUTE_MS) * MINUTE_MS
        : toMs - WHAT_IF_DEFAULT_DAYS * DAY_MS;
      if (fromMs >= toMs) throw new HttpError(400, 'start_date: the range holds no whole minute before now');
      // A start alone runs to now (issue 52): the contract can check only a range with both ends.
      if (toMs - fromMs > WHAT_IF_MAX_DAYS * DAY_MS) {
        throw new HttpError(400, `start_date: ${WHAT_IF_RANGE_TOO_LONG}`);
      }

      const settings = withQuery(await replaySettingsOf(app.db, request.userUuid, platform), query);
      const data = await store.load(platform.platform_uuid, fromMs, toMs);
      const key = JSON.stringify([platform.platform_uuid, fromMs, toMs, settings, data.version]);
      const known = answers.get(key);
      if (known) return { result: known };
      const question = JSON.stringify([
        request.userUuid,
        platform.platform_uuid,
        query.start_date ?? null,
        query.end_date ?? null,
        settings,
      ]);
      const joined = running.get(question);
      if (joined) return { result: await joined };
      const replay = slots.run(
        request.userUuid,
        reply,
        () =>
          pool.run({
            kind: 'what-if',
            input: {
              userUuid: request.userUuid,
              platformUuid: platform.platform_uuid,
              fromMs,
              toMs,
              symbols: data.symbols,
              neurons: data.neurons,
              days: data.days,
              settings,
              orderFilters: EXCHANGE_ORDER_FILTERS,
            },
          }) as Promise<WhatIfResult>,
      );
      running.set(question, replay);
      try {
        const result = await replay;
        answers.set(key, result);
        return { result };
      } finally {
        if (running.get(question) === replay) running.delete(question);
      }
    },
  );
};
