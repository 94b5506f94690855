// /api/public/* (SPEC.md §7): anonymous market information and the public statistics (statistics.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getBitcoinPublicInformationAnswer, getBitcoinPublicTrendDataAnswer } from '../../../../contracts';
import { bitcoinInformation, bitcoinTrendData } from '../../engine/bitcoin-information';
import type { MarketFeed } from '../../engine/market-feed';
import { HttpError } from '../../http-error';
import { statisticsRoutes } from './statistics';

export const publicRoutes: FastifyPluginAsyncZod<{ feed: MarketFeed }> = async (app, { feed }) => {
  await app.register(statisticsRoutes);

  app.get(
    '/get_bitcoin_public_information/',
    { schema: { tags: ['public'], response: { 200: getBitcoinPublicInformationAnswer } } },
    async () => {
      const result = bitcoinInformation(feed);
      if (!result) throw new HttpError(503, 'Market data is not available yet');
      return { result };
    },
  );

  app.get(
    '/get_bitcoin_public_trend_data/',
    {
      schema: {
        tags: ['public'],
        summary: 'Bitcoin price, trend and forecast of the last closed minutes, for a chart',
        response: { 200: getBitcoinPublicTrendDataAnswer },
      },
    },
    async () => {
      const result = bitcoinTrendData(feed);
      if (!result) throw new HttpError(503, 'Market data is not available yet');
      return { result };
    },
  );
};
