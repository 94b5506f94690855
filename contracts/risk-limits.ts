// Risk limits (issue 18 item 3; not in SPEC.md, docs/decisions.md "The cockpit"): the global preferences
// trade_max_open_trades and trade_daily_loss_limit (contracts/preferences.ts, 0 = OFF), the state the server
// computes from the trader's records of both modes (GET /trade/get_risk_limit_state/), and the sentences a refused
// server-mode open answers with, which the SPA recognises here to show them in the trader's language.
//
// Semantics (issue 18; the lead's wording):
// - daily loss = minus the sum of the realized PNL of this trader's trades closed since 00:00 UTC today (net of
//   commissions where a trade carries trade_pnl_net, gross otherwise); wins of the day offset its losses, and a
//   day in profit has a loss of 0. The limit is reached when that loss >= trade_daily_loss_limit (> 0).
// - max open trades counts this trader's open trades across platforms and modes (opens under way and trades
//   waiting for Repair too); reached when that count >= trade_max_open_trades (> 0).
// - When a limit is reached, auto-open stops and a manual open is refused with the sentence below (translated by
//   the SPA). Server mode: the server refuses POST /trade_server/create_trade/ with 409. Client mode: the SPA
//   reads GET /trade/get_risk_limit_state/ afresh before any exchange call and refuses there; the server does
//   NOT refuse POST /trade_client/create_trade/, because that records a position that already exists on the
//   exchange (refusing it would leave a real position on the exchange that the app does not track).
import { z } from 'zod';
import { resultOf } from './common';
import { decimalString } from './trades';

/**
 * The trader's limits and where they stand. A day is the UTC day (00:00 to 24:00 UTC); the day's realized PNL
 * is the sum over the trades closed in it (net of commissions where a trade carries trade_pnl_net), and its
 * loss is that sum's negative part: wins of the day offset its losses.
 */
export const riskLimitState = z
  .object({
    /** The preferences, 0 = OFF. */
    trade_max_open_trades: z.number().int().min(0),
    trade_daily_loss_limit: z.number().min(0),
    /** Open trades of both modes, with opens under way and trades waiting for Repair. */
    open_trade_count: z.number().int().min(0),
    /** Sum of the realized PNL of the trades closed today (UTC), USDT, exact. */
    daily_realized_pnl: decimalString,
    /** max(0, −daily_realized_pnl), USDT, exact. */
    daily_loss: decimalString,
    /** Start of the UTC day the figures are of, and its end (when the daily loss starts again from 0). */
    day_start: z.string(),
    day_end: z.string(),
    /** open_trade_count ≥ trade_max_open_trades > 0. */
    is_max_open_trades_reached: z.boolean(),
    /** daily_loss ≥ trade_daily_loss_limit > 0. */
    is_daily_loss_limit_reached: z.boolean(),
  })
  .meta({ id: 'RiskLimitState' });
export type RiskLimitState = z.infer<typeof riskLimitState>;
export const riskLimitStateAnswer = resultOf(riskLimitState);

/**
 * The sentences of a refused open (409 from POST /trade_server/create_trade/, `detail`), built here by the server
 * and parsed here by the SPA (src/lib/i18n.ts translateError).
 */
export const RiskLimitText = {
  maxOpenTrades: (open: number, max: number) =>
    `The maximum of open trades is reached (${open} open, limit ${max}): no new trade is opened`,
  dailyLossLimit: (loss: string, limit: number) =>
    `The daily loss limit is reached (${loss} USDT lost today, UTC; limit ${limit} USDT): ` +
    'no new trade is opened before 00:00 UTC',
} as const;
export type RiskLimitKind = keyof typeof RiskLimitText;

export type RiskLimitRefusal =
  | { kind: 'maxOpenTrades'; open: number; max: number }
  | { kind: 'dailyLossLimit'; loss: string; limit: number };

const MAX_OPEN_TRADES =
  /^The maximum of open trades is reached \((\d+) open, limit (\d+)\): no new trade is opened$/;
const DAILY_LOSS_LIMIT =
  /^The daily loss limit is reached \((\d{1,20}(?:\.\d{1,18})?) USDT lost today, UTC; limit (\d+(?:\.\d+)?) USDT\): no new trade is opened before 00:00 UTC$/;

/** The limit and figures of a RiskLimitText sentence; undefined for any other text. */
export function parseRiskLimitText(text: string): RiskLimitRefusal | undefined {
  const open = MAX_OPEN_TRADES.exec(text);
  if (open) return { kind: 'maxOpenTrades', open: Number(open[1]), max: Number(open[2]) };
  const loss = DAILY_LOSS_LIMIT.exec(text);
  if (loss) return { kind: 'dailyLossLimit', loss: loss[1]!, limit: Number(loss[2]) };
  return undefined;
}

/** Which limit refuses a new trade in this state (the open-trades limit first), or undefined. */
export function riskLimitRefusal(state: RiskLimitState): RiskLimitRefusal | undefined {
  if (state.is_max_open_trades_reached) {
    return { kind: 'maxOpenTrades', open: state.open_trade_count, max: state.trade_max_open_trades };
  }
  if (state.is_daily_loss_limit_reached) {
    return { kind: 'dailyLossLimit', loss: state.daily_loss, limit: state.trade_daily_loss_limit };
  }
  return undefined;
}

/** The sentence of a refusal (the server's `detail`). */
export function riskLimitText(refusal: RiskLimitRefusal): string {
  return refusal.kind === 'maxOpenTrades'
    ? RiskLimitText.maxOpenTrades(refusal.open, refusal.max)
    : RiskLimitText.dailyLossLimit(refusal.loss, refusal.limit);
}
