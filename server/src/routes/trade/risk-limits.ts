// GET /api/trade/get_risk_limit_state/ (issue 18; not in SPEC.md): where the trader's risk limits stand —
// open trades of both modes and the UTC day's realized loss against trade_max_open_trades and
// trade_daily_loss_limit. The SPA shows it in the signal-info bar, stops auto-open on it and reads it before a
// client-mode open (services/risk-limits.ts; docs/decisions.md "The cockpit").
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, riskLimitStateAnswer } from '../../../../contracts';
import { bearerSecurity } from '../../services/access-token';
import { riskLimitStateOf } from '../../services/risk-limits';

export const riskLimitRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/get_risk_limit_state/',
    {
      schema: {
        tags: ['trade'],
        summary:
          "The trader's risk limits and where they stand: open trades, and the realized loss of the UTC day",
        security: bearerSecurity,
        response: { 200: riskLimitStateAnswer, 401: errorBody },
      },
    },
    async (request) => ({ result: await riskLimitStateOf(app.db, request.userUuid, app.clock()) }),
  );
};
