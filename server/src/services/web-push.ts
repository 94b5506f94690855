// Web Push (issue 41; docs/server.md "Web Push (issue 41)"): the trader's devices are told of new signals, opens, closes and trouble
// while no page is open. Each message is encrypted for its subscription (RFC 8291, aes128gcm) and the push
// service's request is signed with the server's VAPID key (RFC 8292) by the web-push library; the request itself
// goes out through undici with a time-out. What to send is decided where the event is born (DESIGN.md "Where the
// next pieces live"): the trade desk's open and close, the signal engine's new signals, the account streams'
// refusals — each born once on one instance, so each is sent once.
// The VAPID key pair is made at the first start and kept in server_secrets sealed under the master key: every
// instance sharing the database and the master key signs with the same key, and a database copy alone opens
// nothing. Endpoints are accepted only on the known push services (https), so a trader cannot make the server
// send requests elsewhere; PUSH_ENDPOINT_ORIGINS adds origins (a self-hosted push service, the tests' endpoint).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import i18next, { type TFunction } from 'i18next';
import { request } from 'undici';
import webpush from 'web-push';
import {
  PUSH_KIND_OF,
  PUSH_SIGNAL_LIFE_S,
  type PushLanguage,
  type PushMessage,
  type PushMessageKind,
  type PushSubscribeBody,
  type Signal,
} from '../../../contracts';
import type { Database } from '../db';
import { platforms, pushSubscriptions, serverSecrets, tradePreferences } from '../db/schema';
import type { TradeRow } from '../db/schema-trades';
import { HttpError } from '../http-error';
import { HOUSE_USER_UUID } from './house';
import { DEFAULT_TRADE_PREFERENCES } from './preferences';
import type { SecretBox } from './secret-box';
import { roundDecimal } from '../../../shared-core/trade-core-node';

declare module 'fastify' {
  interface FastifyInstance {
    webPush: WebPush;
  }
}

/** server_secrets name of the sealed VAPID key pair. */
const VAPID_SECRET = 'vapid_keys';
/**
 * A push service that has not answered whole in this long is given up on (the message is lost, not retried):
 * connecting, the headers and the body together, so an answer dribbled a byte at a time ends too (issue 52).
 */
export const PUSH_SEND_TIMEOUT_MS = 5_000;
/** Of a push service's answer, at most this much is read (it is only logged when refused); the rest is cut. */
export const PUSH_ANSWER_MAX_BYTES = 4_096;
/** Pushes in flight at once in the process; the rest wait in arrival order. */
export const PUSH_CONCURRENCY = 16;
/**
 * Pushes in flight at once to one push service (origin): a slow or silent one holds at most this many slots
 * until its time-outs, and the others' pushes go on in the rest (issue 52).
 */
export const PUSH_CONCURRENCY_PER_ORIGIN = 6;
/**
 * Pushes waiting for a slot at most: beyond it (push services slower than the news), new ones are dropped and
 * logged, so a slow push service cannot grow the process's memory and its event loop's work without bound.
 */
export const PUSH_QUEUE_MAX = 2_000;
/** Devices a trader may subscribe; a new one beyond replaces the oldest. */
export const PUSH_DEVICES_PER_TRADER = 10;
/** How long a push service keeps a message for an offline device: a trade's news a day. */
const TRADE_NEWS_TTL_S = 24 * 60 * 60;
/** Accuracy compared with minimal_accuracy allowing binary floating point noise (live-core's rule). */
const ACCURACY_TOLERANCE = 1e-9;

/**
 * The push services browsers subscribe with (https only): Chrome/Edge/Opera (FCM), Firefox (Mozilla autopush),
 * Safari (Apple), Edge legacy (WNS). A host matches itself or any subdomain of it.
 */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

export const PUSH_ENDPOINT_REFUSED =
  'This push service is not one Signaldesk sends to; use a current Chrome, Edge, Firefox or Safari';
/** 409: the endpoint is another trader's device, and the keys sent are not that device's. */
export const PUSH_ENDPOINT_TAKEN =
  "This device's notifications belong to another trader; log that trader out on it first";

/** Whether the server may send to `endpoint`: https on a known push service, or an origin the operator added. */
export function pushEndpointAllowed(endpoint: string, extraOrigins: readonly string[] = []): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (extraOrigins.includes(url.origin)) return true;
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return false;
  const host = url.hostname.toLowerCase();
  return PUSH_SERVICE_HOSTS.some((known) => host === known || host.endsWith(`.${known}`));
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID key pair: made once (the first instance to start), stored sealed, answered opened. A pair sealed
 * under another master key (the key was replaced) cannot be opened: a new pair replaces it, and the devices
 * subscribed with the old one are refused by their push services until their pages subscribe again.
 */
export async function loadVapidKeys(
  db: Database,
  box: SecretBox,
  log: { warn(obj: object, msg: string): void },
): Promise<VapidKeys> {
  const fresh = webpush.generateVAPIDKeys();
  const sealed = box.seal(JSON.stringify(fresh), VAPID_SECRET);
  await db.insert(serverSecrets).values({ name: VAPID_SECRET, value: sealed }).onConflictDoNothing();
  // Read back: another instance may have stored its pair first.
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, VAPID_SECRET));
  if (!row) throw new Error('the VAPID keys could not be stored');
  try {
    return JSON.parse(box.open(row.value, VAPID_SECRET)) as VapidKeys;
  } catch {
    log.warn({}, 'push: the stored VAPID keys were sealed under another master key; new ones replace them');
    await db.update(serverSecrets).set({ value: sealed }).where(eq(serverSecrets.name, VAPID_SECRET));
    return fresh;
  }
}

/** The push texts of public/locales/{en,ua}/push.json, rendered on the server in the device's language. */
function pushTexts(): TFunction {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const resources = Object.fromEntries(
    (['en', 'ua'] as const).map((lng) => [
      lng,
      {
        push: JSON.parse(
          fs.readFileSync(path.join(here, '../../../public/locales', lng, 'push.json'), 'utf8'),
        ) as object,
      },
    ]),
  );
  const instance = i18next.createInstance();
  void instance.init({
    resources,
    lng: 'en',
    fallbackLng: 'en',
    ns: ['push'],
    defaultNS: 'push',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return instance.t.bind(instance);
}

/** A decimal string at `decimals` places, in the language's notation (a comma in Ukrainian). */
export function decimalText(value: string, decimals: number, lng: PushLanguage, signed = false): string {
  const rounded = roundDecimal(value, decimals);
  const text = signed && !rounded.startsWith('-') && /[1-9]/.test(rounded) ? `+${rounded}` : rounded;
  return lng === 'ua' ? text.replace('.', ',') : text;
}

interface Recipient {
  endpoint: string;
  user_uuid: string;
  p256dh: string;
  auth: string;
  language: string;
}

export interface WebPushOptions {
  db: Database;
  keys: VapidKeys;
  /** The VAPID subject: a mailto: or https: contact for the push services (SIGNALDESK_PUSH_CONTACT). */
  subject: string;
  /** Origins allowed besides the known push services (PUSH_ENDPOINT_ORIGINS). */
  extraOrigins?: readonly string[];
  log: { warn(obj: object, msg: string): void };
  clock: () => number;
}

export class WebPush {
  private readonly t = pushTexts();
  private inFlight = 0;
  private readonly inFlightByOrigin = new Map<string, number>();
  private readonly waiting: Array<{ origin: string; go: () => void }> = [];
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly options: WebPushOptions) {}

  get publicKey(): string {
    return this.options.keys.publicKey;
  }

  /**
   * Stores (or refreshes) a device's subscription for the trader and login; a device is one trader's (issue 52).
   * An endpoint stored for another trader passes to this one only with that subscription's own keys: a second
   * trader in the same browser (the browser's one subscription, whose auth secret only it and we know), never
   * someone who learnt the endpoint alone — they get 409 and the row stays as it was (one conditional upsert,
   * so two traders racing cannot both win).
   */
  async subscribe(userUuid: string, familyUuid: string | undefined, body: PushSubscribeBody): Promise<void> {
    if (!pushEndpointAllowed(body.endpoint, this.options.extraOrigins)) {
      throw new HttpError(400, PUSH_ENDPOINT_REFUSED);
    }
    const values = {
      user_uuid: userUuid,
      family_uuid: familyUuid ?? null,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      language: body.language,
    };
    const { db } = this.options;
    const stored = await db
      .insert(pushSubscriptions)
      .values({ endpoint: body.endpoint, ...values })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: values,
        setWhere: or(
          eq(pushSubscriptions.user_uuid, userUuid),
          and(eq(pushSubscriptions.p256dh, body.keys.p256dh), eq(pushSubscriptions.auth, body.keys.auth)),
        ),
      })
      .returning({ endpoint: pushSubscriptions.endpoint });
    if (stored.length === 0) throw new HttpError(409, PUSH_ENDPOINT_TAKEN);
    // The oldest devices beyond the trader's allowance go.
    const own = await db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.user_uuid, userUuid))
      .orderBy(sql`${pushSubscriptions.created_at} desc`);
    const beyond = own.slice(PUSH_DEVICES_PER_TRADER).map((row) => row.endpoint);
    if (beyond.length > 0) {
      await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.endpoint, beyond));
    }
  }

  async unsubscribe(userUuid: string, endpoint: string): Promise<void> {
    await this.options.db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.user_uuid, userUuid), eq(pushSubscriptions.endpoint, endpoint)));
  }

  /** Logout: the devices that login subscribed are told nothing more. */
  async forgetLogin(familyUuid: string): Promise<void> {
    await this.options.db.delete(pushSubscriptions).where(eq(pushSubscriptions.family_uuid, familyUuid));
  }

  /** Resolves when every push started so far has been answered (or failed). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** A trade opened (either mode), and a warning when it has no stop on the exchange. */
  tradeOpened(trade: TradeRow, symbolPair: string, stopMissing: boolean): void {
    if (trade.user_uuid === HOUSE_USER_UUID) return;
    this.start(async () => {
      const platformName = await this.platformName(trade.platform_uuid);
      const side = trade.trade_direction;
      const mode = trade.trade_in_server_side === 1 ? 'server' : 'client';
      await this.deliver([trade.user_uuid], 'trade_opened', (lng) => ({
        title: this.t('opened_title', { lng, side, pair: symbolPair }),
        body: this.t('opened_body', {
          lng,
          price: trade.trade_open_price ?? '',
          margin: decimalText(trade.trade_margin, 2, lng),
          leverage: trade.trade_leverage,
          platform: this.t(`platform_name.${platformName}`, { lng, defaultValue: platformName }),
          mode: this.t(`mode.${mode}`, { lng }),
        }),
        url: `/trading`,
        tag: `trade:${trade.trade_uuid}`,
        trade_uuid: trade.trade_uuid,
      }));
      if (stopMissing) await this.sendUnprotected(trade, symbolPair);
    });
  }

  /** A trade's position is on the exchange without its stop (the stop refused at the open, or cancelled later). */
  unprotected(trade: TradeRow, symbolPair: string): void {
    this.start(() => this.sendUnprotected(trade, symbolPair));
  }

  private async sendUnprotected(trade: TradeRow, symbolPair: string): Promise<void> {
    await this.deliver([trade.user_uuid], 'unprotected', (lng) => ({
      title: this.t('unprotected_title', { lng, pair: symbolPair }),
      body: this.t('unprotected_body', { lng, side: trade.trade_direction, pair: symbolPair }),
      url: `/trading`,
      tag: `unprotected:${trade.trade_uuid}`,
      trade_uuid: trade.trade_uuid,
    }));
  }

  /**
   * Orders a closed trade left on the exchange with no key at hand to cancel them (issue 54): they could act on
   * the next position of the symbol until the page or the PIN is back. Sent as protection news (push_unprotected).
   */
  ordersLeft(left: { trade_uuid: string; user_uuid?: string; symbol_pair?: string; count?: number }): void {
    const { user_uuid, symbol_pair: pair = '', count = 0 } = left;
    if (user_uuid === undefined || count === 0) return;
    this.start(() =>
      this.deliver([user_uuid], 'unprotected', (lng) => ({
        title: this.t('orders_left_title', { lng, pair, count }),
        body: this.t('orders_left_body', { lng, pair }),
        url: `/trade_history?trade=${left.trade_uuid}`,
        tag: `orders_left:${left.trade_uuid}`,
        trade_uuid: left.trade_uuid,
      })),
    );
  }

  /** A trade closed: its exit and net PNL (gross when the fees are unknown). Opens the trade's history row. */
  tradeClosed(trade: TradeRow, symbolPair: string): void {
    if (trade.user_uuid === HOUSE_USER_UUID) return;
    this.start(async () => {
      const pnl = trade.trade_pnl_net ?? trade.trade_pnl_current ?? '0';
      const net = trade.trade_pnl_net !== null;
      await this.deliver([trade.user_uuid], 'trade_closed', (lng) => ({
        title: this.t('closed_title', {
          lng,
          status: this.t(`status.${trade.trade_status}`, { lng, defaultValue: trade.trade_status }),
          pair: symbolPair,
          pnl: decimalText(pnl, 2, lng, true),
        }),
        body: this.t(net ? 'closed_body_net' : 'closed_body_gross', {
          lng,
          side: trade.trade_direction,
          price: trade.trade_current_price ?? '',
          pnl: decimalText(pnl, 2, lng, true),
          roe: decimalText(trade.trade_roe_net ?? trade.trade_roe_current ?? '0', 2, lng, true),
        }),
        url: `/trade_history?trade=${trade.trade_uuid}`,
        tag: `trade:${trade.trade_uuid}`,
        trade_uuid: trade.trade_uuid,
        trade_status: trade.trade_status,
        trade_pnl_net: pnl,
      }));
    });
  }

  /** The exchange refused the trader's key or order while no page may be open (code and its words). */
  refusal(userUuid: string, platformUuid: string, code: number | undefined, reason: string): void {
    this.start(async () => {
      const platformName = await this.platformName(platformUuid);
      await this.deliver([userUuid], 'refusal', (lng) => ({
        title: this.t('refusal_title', {
          lng,
          platform: this.t(`platform_name.${platformName}`, { lng, defaultValue: platformName }),
        }),
        body: this.t(code === undefined ? 'refusal_body' : 'refusal_body_code', { lng, reason, code }),
        url: '/trade_preferences',
        tag: `refusal:${platformUuid}`,
      }));
    });
  }

  /**
   * New signals: each trader with push_signals on is told of those whose accuracy reaches their
   * minimal_accuracy — one notification per symbol and direction (a signal is made for every platform), which
   * opens its card while its 99 s last.
   */
  signals(wire: readonly Signal[]): void {
    if (wire.length === 0) return;
    this.start(async () => {
      const rows = await this.options.db
        .select({
          endpoint: pushSubscriptions.endpoint,
          user_uuid: pushSubscriptions.user_uuid,
          p256dh: pushSubscriptions.p256dh,
          auth: pushSubscriptions.auth,
          language: pushSubscriptions.language,
          minimal_accuracy: tradePreferences.minimal_accuracy,
        })
        .from(pushSubscriptions)
        .leftJoin(tradePreferences, eq(tradePreferences.user_uuid, pushSubscriptions.user_uuid))
        .where(sql`coalesce(${tradePreferences.push_signals}, 1) = 1`);
      const sent = this.options.clock();
      const sends: Array<Promise<void>> = [];
      for (const row of rows) {
        const minimal = row.minimal_accuracy ?? DEFAULT_TRADE_PREFERENCES.minimal_accuracy;
        const chosen = wire.filter((item) => item.signal_accuracy * 100 + ACCURACY_TOLERANCE >= minimal);
        const bySide = new Map<string, Signal>();
        for (const item of chosen) {
          const key = `${item.symbol.symbol_pair}:${item.signal_direction_created}`;
          if (!bySide.has(key)) bySide.set(key, item);
        }
        for (const item of bySide.values()) {
          const lng = this.language(row.language);
          const created = Date.parse(item.signal_created_at);
          const message: PushMessage = {
            kind: 'signal',
            title: this.t('signal_title', {
              lng,
              side: item.signal_direction_created,
              pair: item.symbol.symbol_pair,
              price: item.signal_price_enter,
            }),
            body: this.t(item.neuron ? 'signal_body_neuron' : 'signal_body', {
              lng,
              accuracy: decimalText(String(item.signal_accuracy * 100), 2, lng),
              neuron: item.neuron?.neuron_tag_name,
              seconds: PUSH_SIGNAL_LIFE_S,
            }),
            url: `/trading?signal=${item.signal_uuid}`,
            tag: `signal:${item.symbol.symbol_pair}:${item.signal_direction_created}`,
            sent_at: sent,
            expires_at: (Number.isFinite(created) ? created : sent) + PUSH_SIGNAL_LIFE_S * 1000,
            signal_uuid: item.signal_uuid,
          };
          sends.push(this.send(row, message, PUSH_SIGNAL_LIFE_S));
        }
      }
      await Promise.all(sends);
    });
  }

  private start(task: () => Promise<void>): void {
    const run = task().catch((error: unknown) => this.options.log.warn({ err: error }, 'push: not sent'));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private language(text: string): PushLanguage {
    return text === 'ua' ? 'ua' : 'en';
  }

  private async platformName(platformUuid: string): Promise<string> {
    const [row] = await this.options.db
      .select({ name: platforms.platform_name })
      .from(platforms)
      .where(eq(platforms.platform_uuid, platformUuid));
    return row?.name ?? '';
  }

  /** Sends one kind of message to every device of `users` whose trader lets that kind through. */
  private async deliver(
    users: readonly string[],
    kind: PushMessageKind,
    build: (lng: PushLanguage) => Omit<PushMessage, 'kind' | 'sent_at'>,
  ): Promise<void> {
    // The house account trades every signal and has no devices: it costs no query.
    const wanted = users.filter((user) => user !== HOUSE_USER_UUID);
    if (wanted.length === 0) return;
    const preference = tradePreferences[PUSH_KIND_OF[kind]];
    const rows: Recipient[] = await this.options.db
      .select({
        endpoint: pushSubscriptions.endpoint,
        user_uuid: pushSubscriptions.user_uuid,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
        language: pushSubscriptions.language,
      })
      .from(pushSubscriptions)
      .leftJoin(tradePreferences, eq(tradePreferences.user_uuid, pushSubscriptions.user_uuid))
      .where(and(inArray(pushSubscriptions.user_uuid, wanted), sql`coalesce(${preference}, 1) = 1`));
    const sent = this.options.clock();
    await Promise.all(
      rows.map((row) =>
        this.send(row, { kind, sent_at: sent, ...build(this.language(row.language)) }, TRADE_NEWS_TTL_S),
      ),
    );
  }

  /** One encrypted push to one device, at most PUSH_CONCURRENCY at once; a gone device is forgotten. */
  private async send(to: Recipient, message: PushMessage, ttlSeconds: number): Promise<void> {
    if (!pushEndpointAllowed(to.endpoint, this.options.extraOrigins)) return;
    if (this.waiting.length >= PUSH_QUEUE_MAX) {
      this.options.log.warn({ kind: message.kind }, 'push: too many waiting; dropped');
      return;
    }
    const origin = new URL(to.endpoint).origin;
    await this.slot(origin);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), PUSH_SEND_TIMEOUT_MS);
    try {
      const details = webpush.generateRequestDetails(
        { endpoint: to.endpoint, keys: { p256dh: to.p256dh, auth: to.auth } },
        JSON.stringify(message),
        {
          vapidDetails: {
            subject: this.options.subject,
            publicKey: this.options.keys.publicKey,
            privateKey: this.options.keys.privateKey,
          },
          TTL: ttlSeconds,
          urgency: 'high',
        },
      );
      const answer = await request(details.endpoint, {
        method: 'POST',
        headers: details.headers as Record<string, string>,
        body: details.body ?? undefined,
        signal: deadline.signal,
      });
      const text = await readBounded(answer.body, PUSH_ANSWER_MAX_BYTES);
      if (answer.statusCode === 404 || answer.statusCode === 410) {
        // The device unsubscribed or the subscription expired: the push service says never to send again.
        await this.options.db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, to.endpoint));
        return;
      }
      if (answer.statusCode < 200 || answer.statusCode > 299) {
        this.options.log.warn(
          { status: answer.statusCode, kind: message.kind, answer: text.slice(0, 200) },
          'push: refused by the push service',
        );
        return;
      }
    } catch (error) {
      // Not answered (time-out, connection refused or reset). Only the kind and the reason are logged: the
      // transport's own error can quote the endpoint, a capability URL.
      const reason = deadline.signal.aborted
        ? 'timeout'
        : String((error as { code?: unknown }).code ?? (error as Error).name);
      this.options.log.warn({ kind: message.kind, reason }, 'push: not answered by the push service');
    } finally {
      clearTimeout(timer);
      this.release(origin);
    }
  }

  private startable(origin: string): boolean {
    return (
      this.inFlight < PUSH_CONCURRENCY &&
      (this.inFlightByOrigin.get(origin) ?? 0) < PUSH_CONCURRENCY_PER_ORIGIN
    );
  }

  private take(origin: string): void {
    this.inFlight += 1;
    this.inFlightByOrigin.set(origin, (this.inFlightByOrigin.get(origin) ?? 0) + 1);
  }

  private async slot(origin: string): Promise<void> {
    if (this.startable(origin)) {
      this.take(origin);
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push({ origin, go: resolve }));
  }

  /** A freed slot goes to the first waiter whose push service is below its share. */
  private release(origin: string): void {
    this.inFlight -= 1;
    const held = (this.inFlightByOrigin.get(origin) ?? 1) - 1;
    if (held > 0) this.inFlightByOrigin.set(origin, held);
    else this.inFlightByOrigin.delete(origin);
    const at = this.waiting.findIndex((waiter) => this.startable(waiter.origin));
    if (at < 0) return;
    const [next] = this.waiting.splice(at, 1);
    this.take(next!.origin);
    next!.go();
  }
}

/** Up to `limit` bytes of an answer's body as text; the rest is not read (the stream is destroyed). */
async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(): void },
  limit: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
