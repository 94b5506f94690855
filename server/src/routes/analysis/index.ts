// /api/analysis/* (SPEC.md §7 POST /analysis/get_analysis/): the correlation of the published signals with
// bitcoin's 5-minute returns over lags. Shapes and the series definitions in contracts/analysis.ts; the
// computation in engine/analysis.ts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analysisRequest, errorBody, getAnalysisAnswer } from '../../../../contracts';
import { analyseRange, MarketDataUnavailableError } from '../../engine/analysis';
import type { MarketFeed } from '../../engine/market-feed';
import { bearerSecurity } from '../../services/access-token';
import { HttpError } from '../../http-error';

export const analysisRoutes: FastifyPluginAsyncZod<{ feed: MarketFeed }> = async (app, { feed }) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/get_analysis/',
    {
      schema: {
        tags: ['analysis'],
        summary: "Correlation of the signals with bitcoin's 5-minute returns at lags of −24…24 buckets",
        security: bearerSecurity,
        body: analysisRequest,
        response: { 200: getAnalysisAnswer, 400: errorBody, 401: errorBody, 503: errorBody },
      },
    },
    async (request) => {
      const range = {
        startMs: Date.parse(request.body.datatime_start),
        endMs: Date.parse(request.body.datatime_end),
        nowMs: app.clock(),
      };
      try {
        return { result: await analyseRange(app.db, feed, range) };
      } catch (error) {
        if (!(error instanceof MarketDataUnavailableError)) throw error;
        request.log.warn({ err: error.cause }, 'analysis: klines unavailable');
        throw new HttpError(503, error.message);
      }
    },
  );
};
