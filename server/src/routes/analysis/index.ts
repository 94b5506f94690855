// /api/analysis/* (SPEC.md §7 POST /analysis/get_analysis/): the correlation of the published signals with
// bitcoin's 5-minute returns over lags. Shapes and the series definitions in contracts/analysis.ts; the
// computation in engine/analysis.ts.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import { ANALYSIS_BUCKET_MS, analysisRequest, errorBody, getAnalysisAnswer } from '../../../../contracts';
import { analyseRange, MarketDataUnavailableError } from '../../engine/analysis';
import { AnalysisData } from '../../engine/analysis-data';
import { lagScan } from '../../../../shared-core/trade-core-node';
import type { MarketFeed } from '../../engine/market-feed';
import { bearerSecurity } from '../../services/access-token';
import { HttpError } from '../../http-error';
import { WorkSlots } from '../../services/work-slots';

/**
 * What traders share stays theirs (issue 38 item 1): an analysis reads a month of klines and signals, so one
 * account running many at once held the event loop for every trader. Each trader has at most one running (a
 * second is refused at once, 429), at most ANALYSES_AT_ONCE run in the process and the others wait their turn in
 * arrival order (up to ANALYSES_WAITING; beyond, 429). An answer is kept ANSWER_TTL_MS for its bucket-aligned
 * range, so the same analysis asked again (a reload, another trader) costs nothing.
 */
export const ANALYSES_AT_ONCE = 2;
export const ANALYSES_WAITING = 32;
const ANSWER_TTL_MS = 60_000;
/** Retry-After of an analysis whose market data could not be read. */
const MARKET_RETRY_S = 30;
export const ANALYSIS_RUNNING = 'Your analysis is still running: try again when it is done';
export const ANALYSIS_BUSY = 'The server is busy with analyses: try again in a few seconds';

export const analysisRoutes: FastifyPluginAsyncZod<{ feed: MarketFeed }> = async (app, { feed }) => {
  app.addHook('onRequest', app.authenticate);
  const slots = new WorkSlots({
    atOnce: ANALYSES_AT_ONCE,
    waiting: ANALYSES_WAITING,
    running: ANALYSIS_RUNNING,
    busy: ANALYSIS_BUSY,
  });
  // Kept as the JSON sent (checked against the contract once, when made): a repeat costs no serialisation.
  const answers = new LRUCache<string, string>({ max: 256, ttl: ANSWER_TTL_MS });
  const send = (reply: FastifyReply, body: string) =>
    reply.type('application/json; charset=utf-8').send(body as never);
  // The market data and signals of every analysis, read once for all of them (issue 52).
  const data = new AnalysisData(app.db, feed);

  app.post(
    '/get_analysis/',
    {
      schema: {
        tags: ['analysis'],
        summary: "Correlation of the signals with bitcoin's 5-minute returns at lags of −24…24 buckets",
        security: bearerSecurity,
        body: analysisRequest,
        response: { 200: getAnalysisAnswer, 400: errorBody, 401: errorBody, 429: errorBody, 503: errorBody },
      },
    },
    async (request, reply) => {
      const range = {
        startMs: Date.parse(request.body.datatime_start),
        endMs: Date.parse(request.body.datatime_end),
        nowMs: app.clock(),
      };
      // The buckets the answer is made of: the same key, the same answer.
      const key = [range.startMs, range.endMs, range.nowMs]
        .map((ms) => Math.floor(ms / ANALYSIS_BUCKET_MS))
        .join(':');
      const known = answers.get(key);
      if (known) return send(reply, known);
      try {
        const body = await slots.run(request.userUuid, reply, async () => {
          const result = await analyseRange(
            data,
            range,
            // One trade-core call of a few milliseconds: on the event loop, where a worker's start (seconds on a
            // busy machine, and the what-if's replays ahead of it in the pool) would cost more than it saves.
            async ({ buy, sell, price, maxLag }) => lagScan(buy, sell, price, maxLag),
          );
          const made = JSON.stringify(getAnalysisAnswer.parse({ result }));
          answers.set(key, made);
          return made;
        });
        return send(reply, body);
      } catch (error) {
        if (!(error instanceof MarketDataUnavailableError)) throw error;
        request.log.warn({ err: error.cause }, 'analysis: klines unavailable');
        // Says what is missing and when to ask again (issue 52): never a bare 5xx.
        throw new HttpError(
          503,
          `${error.message}: bitcoin's 5-minute prices of this range are neither stored nor readable from the exchange now`,
          MARKET_RETRY_S,
        );
      }
    },
  );
};
