// GET /api/public/get_statistic_trade_by_day/ and /get_statistic_trade_by_month/ (SPEC.md §2 Dashboard, §7):
// the house account's track record (engine/statistics.ts), public like the bitcoin information. Empty lists
// when nothing was recorded (no house: EXCHANGE_URL names a real exchange).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { statisticTradeByDayAnswer, statisticTradeByMonthAnswer } from '../../../../contracts';
import { itemsOfLastMonth, pointsOfLastDay } from '../../engine/statistics';

export const statisticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/get_statistic_trade_by_day/',
    {
      schema: {
        tags: ['public'],
        summary: 'The house account’s open trades every 5 minutes over the last 24 hours, oldest first',
        response: { 200: statisticTradeByDayAnswer },
      },
    },
    async () => ({
      result: { statistic_trade_by_day_list: await pointsOfLastDay(app.db, app.clock()) },
    }),
  );

  app.get(
    '/get_statistic_trade_by_month/',
    {
      schema: {
        tags: ['public'],
        summary: 'The house account’s trades closed per UTC day over the last 30 complete days, oldest first',
        response: { 200: statisticTradeByMonthAnswer },
      },
    },
    async () => ({
      result: { statistic_trade_by_month_list: await itemsOfLastMonth(app.db, app.clock()) },
    }),
  );
};
