// /api/signal/* (SPEC.md §7): the price around one signal, the track record behind its accuracy, and the
// newest signals for a page that (re)connects. Shapes in contracts/signals.ts; rules in docs/decisions.md
// "Market and signals".
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorBody,
  getRecentSignalListAnswer,
  getSignalHistoryAnswer,
  getSignalTrendAnswer,
  recentSignalListQuery,
  signalFeedAnswer,
  signalFeedQuery,
  signalUuidParams,
} from '../../../../contracts';
import { candlePointOf, MINUTE_MS } from '../../engine/candles';
import { HIT_THRESHOLD_PERCENT, HORIZON_MINUTES, thresholdPrices } from '../../engine/hit-rule';
import type { MarketFeed } from '../../engine/market-feed';
import { ACCURACY_WINDOW } from '../../engine/signal-engine';
import { findNeuron, findSignal, toSignalRecord, trackRecordOf } from '../../engine/signal-store';
import { symbols } from '../../db/schema';
import { bearerSecurity } from '../../services/access-token';
import { HttpError } from '../../http-error';
import { eq } from 'drizzle-orm';
import { recentSignalsFor } from './recent-signals';
import { signalFeedFor } from './signal-feed';

/** Minutes of price shown before a signal was made. */
const LEAD_MINUTES = 60;

export const signalRoutes: FastifyPluginAsyncZod<{ feed: MarketFeed }> = async (app, { feed }) => {
  app.addHook('onRequest', app.authenticate);

  const load = async (signalUuid: string) => {
    const row = await findSignal(app.db, signalUuid);
    if (!row) throw new HttpError(404, 'Signal not found');
    const neuron = await findNeuron(app.db, row.neuron_uuid);
    if (!neuron) throw new HttpError(404, 'Signal not found');
    return { row, neuron };
  };

  app.get(
    '/get_signal_trend_by_uuid/:signal_uuid/',
    {
      schema: {
        tags: ['signal'],
        summary: 'Price candles around a signal, with its threshold prices',
        security: bearerSecurity,
        params: signalUuidParams,
        response: { 200: getSignalTrendAnswer, 401: errorBody, 404: errorBody, 503: errorBody },
      },
    },
    async (request) => {
      const { row, neuron } = await load(request.params.signal_uuid);
      const [symbol] = await app.db.select().from(symbols).where(eq(symbols.symbol_uuid, row.symbol_uuid));
      if (!symbol) throw new HttpError(404, 'Signal not found');
      const created = row.created_at.getTime();
      const horizonEnd = created + HORIZON_MINUTES * MINUTE_MS;
      const end = row.resolved_at?.getTime() ?? Math.min(horizonEnd, app.clock());
      let candles;
      try {
        candles = await feed.candlesBetween(
          symbol.symbol_pair,
          created - (LEAD_MINUTES + 1) * MINUTE_MS,
          end,
        );
      } catch {
        throw new HttpError(503, 'Market data is not available');
      }
      const record = toSignalRecord(row);
      const prices = thresholdPrices(record.signal_direction_created, record.signal_price_enter);
      return {
        result: {
          signal: record,
          symbol_pair: symbol.symbol_pair,
          neuron,
          hit_threshold_percent: HIT_THRESHOLD_PERCENT,
          horizon_minutes: HORIZON_MINUTES,
          price_target: prices.target,
          price_stop: prices.stop,
          trend_data_list: candles.map(candlePointOf),
        },
      };
    },
  );

  app.get(
    '/get_signal_history_by_uuid/:signal_uuid/',
    {
      schema: {
        tags: ['signal'],
        summary: "The neuron's resolved signals on the symbol that the signal's accuracy was measured over",
        security: bearerSecurity,
        params: signalUuidParams,
        response: { 200: getSignalHistoryAnswer, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const { row, neuron } = await load(request.params.signal_uuid);
      const history = await trackRecordOf(app.db, row);
      return {
        result: {
          signal: toSignalRecord(row),
          neuron,
          resolved_count: history.length,
          hit_count: history.filter((item) => item.outcome === 'hit').length,
          accuracy_window: ACCURACY_WINDOW,
          signal_history_list: history.map(toSignalRecord),
        },
      };
    },
  );

  app.get(
    '/get_recent_signal_list/',
    {
      schema: {
        tags: ['signal'],
        summary:
          'The newest signals the trader would have been sent (accuracy reaching minimal_accuracy, a ' +
          'tradable platform) and has not traded, newest first',
        security: bearerSecurity,
        querystring: recentSignalListQuery,
        response: { 200: getRecentSignalListAnswer, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => ({
      result: {
        signal_list: await recentSignalsFor(app.db, request.userUuid, request.query.limit),
        server_time: new Date(app.clock()).toISOString(),
      },
    }),
  );

  app.get(
    '/get_signal_feed/',
    {
      schema: {
        tags: ['signal'],
        summary:
          "The last hour's signals the trader's filter passed, with their outcomes and their neurons' accuracy " +
          'now, and how many signals the engine made in that hour',
        security: bearerSecurity,
        querystring: signalFeedQuery,
        response: { 200: signalFeedAnswer, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => ({
      result: await signalFeedFor(app.db, request.userUuid, app.clock(), request.query.limit),
    }),
  );
};
