// GET /api/public/get_statistic_trade_by_day/ and /get_statistic_trade_by_month/ (SPEC.md §2 Dashboard, §7):
// the house account's track record (engine/statistics.ts), public like the bitcoin information. Empty lists
// when nothing was recorded (no house: EXCHANGE_URL names a real exchange).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  houseRecordAnswer,
  statisticTradeByDayAnswer,
  statisticTradeByMonthAnswer,
  type HouseRecord,
} from '../../../../contracts';
import { houseRecordOf } from '../../engine/house-record';
import { itemsOfLastMonth, pointsOfLastDay } from '../../engine/statistics';

/** The house's terms change at most with a deployment or a new trade: read at most once a minute. */
const HOUSE_RECORD_KEPT_MS = 60_000;

export const statisticsRoutes: FastifyPluginAsyncZod = async (app) => {
  let kept: { at: number; record: Promise<HouseRecord> } | undefined;
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

  app.get(
    '/get_house_record/',
    {
      schema: {
        tags: ['public'],
        summary:
          'On what terms the house trades: its settings (the new-trader defaults), since which UTC day its trades carry them and book fees',
        response: { 200: houseRecordAnswer },
      },
    },
    async () => {
      const now = app.clock();
      if (!kept || now - kept.at >= HOUSE_RECORD_KEPT_MS) {
        const record = houseRecordOf(app.db);
        kept = { at: now, record };
        // A failed read is not kept: the next request reads again.
        record.catch(() => {
          if (kept?.record === record) kept = undefined;
        });
      }
      return { result: await kept.record };
    },
  );
};
