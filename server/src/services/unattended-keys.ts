// The server acting while the trader is away (issue 54; docs/server.md "The account followed"): a server-mode
// token opens only with the PIN (DESIGN.md "Server mode"), so with no PIN at hand the server could cancel nothing
// a close left behind. When the trader turns on trade_server_acts_when_away, the next call with the PIN keeps a
// second seal of the token's key and secret: AES-256-GCM under a key derived from the master key with HKDF (its
// own purpose, never the PIN), bound to the user and platform, in followed_accounts.unattended_sealed — never in
// the database in clear. Revoking the token, a new token, or the option switched off deletes it.
//
// What the seal opens is an exchange client that sends protective calls only (protectiveOnly below), checked on
// every request before it leaves: reads; the cancel of a Signaldesk stop, backstop or exit (sds…, sdb…, sdt…,
// sdr…); the placing of a reduce-only stop or exit with such an id. Never an opening order, a close, nor a
// change of leverage, margin type or position mode: those stay the trader's, with the PIN.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { TradeSide, tradeTokenContent, type TradeTokenContent } from '../../../contracts';
import type { ExchangeClient } from '../../../shared-core/exchange-client';
import type { Database } from '../db';
import { followedAccounts, platforms, symbols, tradePreferences } from '../db/schema';
import { trades } from '../db/schema-trades';
import { relayKeyDigest } from './exchange-relay';
import { serverExchangeClient } from './exchange-transport';
import type { SecretBox } from './secret-box';

/** HKDF purpose of the layer the unattended keys are sealed under (SecretBox.derive). */
const UNATTENDED_LAYER = 'unattended-key';
const layers = new WeakMap<SecretBox, SecretBox>();

function layerOf(box: SecretBox): SecretBox {
  let layer = layers.get(box);
  if (!layer) {
    layer = box.derive(UNATTENDED_LAYER);
    layers.set(box, layer);
  }
  return layer;
}

const boundTo = (userUuid: string, platformUuid: string) => `unattended:${userUuid}:${platformUuid}`;

/**
 * Keeps the second seal of an opened server-mode token, when the trader lets the server act while away and the
 * server follows the account with the token's own key. Answers whether a seal is now kept.
 */
export async function sealUnattendedKey(
  db: Database,
  box: SecretBox,
  input: {
    user_uuid: string;
    platform_uuid: string;
    content: Pick<TradeTokenContent, 'api_key' | 'api_secret'>;
  },
): Promise<boolean> {
  const { user_uuid, platform_uuid, content } = input;
  const sealed = layerOf(box).seal(
    JSON.stringify({ api_key: content.api_key, api_secret: content.api_secret }),
    boundTo(user_uuid, platform_uuid),
  );
  const updated = await db
    .update(followedAccounts)
    .set({ unattended_sealed: sealed })
    .where(
      and(
        eq(followedAccounts.user_uuid, user_uuid),
        eq(followedAccounts.platform_uuid, platform_uuid),
        eq(followedAccounts.key_digest, relayKeyDigest(box, platform_uuid, content.api_key)),
        isNull(followedAccounts.unattended_sealed),
        sql`exists (select 1 from ${tradePreferences} where ${tradePreferences.user_uuid} = ${user_uuid}
          and ${tradePreferences.trade_server_acts_when_away} = 1)`,
      ),
    )
    .returning({ user_uuid: followedAccounts.user_uuid });
  return updated.length > 0;
}

/** Deletes the trader's second seals (the option switched off), of one platform when given. */
export async function forgetUnattendedKeys(
  db: Database,
  userUuid: string,
  platformUuid?: string,
): Promise<void> {
  await db
    .update(followedAccounts)
    .set({ unattended_sealed: null })
    .where(
      and(
        eq(followedAccounts.user_uuid, userUuid),
        platformUuid === undefined ? undefined : eq(followedAccounts.platform_uuid, platformUuid),
      ),
    );
}

/**
 * The protective-only exchange client of the trader's account on the platform, while the option is on and a
 * seal is kept; undefined otherwise (then only the PIN or the page can act). Throws when a seal does not open.
 */
export async function unattendedClient(
  db: Database,
  box: SecretBox,
  userUuid: string,
  platformUuid: string,
): Promise<ExchangeClient | undefined> {
  const [row] = await db
    .select({ sealed: followedAccounts.unattended_sealed, base_url: platforms.base_url })
    .from(followedAccounts)
    .innerJoin(platforms, eq(platforms.platform_uuid, followedAccounts.platform_uuid))
    .innerJoin(tradePreferences, eq(tradePreferences.user_uuid, followedAccounts.user_uuid))
    .where(
      and(
        eq(followedAccounts.user_uuid, userUuid),
        eq(followedAccounts.platform_uuid, platformUuid),
        eq(tradePreferences.trade_server_acts_when_away, 1),
      ),
    );
  if (!row?.sealed) return undefined;
  const key = tradeTokenContent
    .pick({ api_key: true, api_secret: true })
    .parse(JSON.parse(layerOf(box).open(row.sealed, boundTo(userUuid, platformUuid))));
  return serverExchangeClient(row.base_url, key, userUuid, { protectiveOnly: true });
}

/** Cancels a closed trade's waiting orders with a key (TradeReconciler.cancelWaitingOrders). */
export type CancelWaiting = (
  userUuid: string,
  platformUuid: string,
  client: ExchangeClient,
  symbolUuid?: string,
) => Promise<void>;

/** What became of a recorded close's leftovers, with what the trader is told when they stay. */
export interface LeftoversOutcome {
  outcome: 'cancelled' | 'no_key' | 'none';
  trade_uuid: string;
  user_uuid?: string;
  symbol_pair?: string;
  /** How many orders of the trade are still on the exchange ('no_key'). */
  count?: number;
}

/**
 * A trade the account stream recorded closed (issue 54): what its close left on the exchange is cancelled at
 * once with the unattended key, for a server-mode trade whose trader lets the server act while away. 'no_key'
 * when orders wait and no key is at hand (client mode with no page, server mode with the option off): they stay
 * listed on the trade until the page or the PIN is back. 'none' when nothing waits.
 */
export async function cancelLeftoversWhenAway(
  db: Database,
  box: SecretBox,
  tradeUuid: string,
  cancelWaiting: CancelWaiting,
): Promise<LeftoversOutcome> {
  const [trade] = await db
    .select({
      user_uuid: trades.user_uuid,
      platform_uuid: trades.platform_uuid,
      symbol_uuid: trades.symbol_uuid,
      symbol_pair: symbols.symbol_pair,
      server_side: trades.trade_in_server_side,
      waiting: trades.trade_exits_waiting,
    })
    .from(trades)
    .innerJoin(symbols, eq(symbols.symbol_uuid, trades.symbol_uuid))
    .where(eq(trades.trade_uuid, tradeUuid));
  if (!trade?.waiting?.length) return { outcome: 'none', trade_uuid: tradeUuid };
  const client =
    trade.server_side === TradeSide.SERVER
      ? await unattendedClient(db, box, trade.user_uuid, trade.platform_uuid)
      : undefined;
  if (client) {
    await cancelWaiting(trade.user_uuid, trade.platform_uuid, client, trade.symbol_uuid);
    return { outcome: 'cancelled', trade_uuid: tradeUuid };
  }
  return {
    outcome: 'no_key',
    trade_uuid: tradeUuid,
    user_uuid: trade.user_uuid,
    symbol_pair: trade.symbol_pair,
    count: trade.waiting.length,
  };
}

/**
 * The account streams' onClose (engine/leader-duties.ts): each recorded close's leftovers cancelled with the
 * unattended key, in the background; a failure is logged, and the orders stay listed for the next key.
 */
export function leftoversCancelledWhenAway(options: {
  db: Database;
  box: SecretBox;
  reconciler: { cancelWaitingOrders: CancelWaiting };
  log: { warn(obj: object, msg: string): void };
  /** Where the trader is told of leftovers no key can cancel (services/web-push.ts ordersLeft). */
  push?: { ordersLeft(left: LeftoversOutcome): void };
  /** Told each outcome (tests). */
  onOutcome?: (outcome: LeftoversOutcome) => void;
}): (tradeUuid: string) => void {
  const { db, box, reconciler, log } = options;
  const cancelWaiting: CancelWaiting = (...args) => reconciler.cancelWaitingOrders(...args);
  return (tradeUuid) => {
    cancelLeftoversWhenAway(db, box, tradeUuid, cancelWaiting)
      .then((outcome) => {
        if (outcome.outcome === 'no_key') options.push?.ordersLeft(outcome);
        options.onOutcome?.(outcome);
      })
      .catch((error: unknown) =>
        log.warn({ message: (error as Error).message }, 'account streams: leftovers not cancelled'),
      );
  };
}
