// /api/public/* (SPEC.md §7): anonymous market information.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getBitcoinPublicInformationAnswer } from '../../../../contracts';
import { bitcoinInformation } from '../../engine/bitcoin-information';
import type { MarketFeed } from '../../engine/market-feed';
import { HttpError } from '../../plugins/errors';

export const publicRoutes: FastifyPluginAsyncZod<{ feed: MarketFeed }> = async (app, { feed }) => {
  app.get(
    '/get_bitcoin_public_information/',
    { schema: { tags: ['public'], response: { 200: getBitcoinPublicInformationAnswer } } },
    async () => {
      const result = bitcoinInformation(feed);
      if (!result) throw new HttpError(503, 'Market data is not available yet');
      return { result };
    },
  );
};
