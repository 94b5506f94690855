// Web Push (issue 41): a device's subscription, the kinds of news a trader picks, and the message the service
// worker (public/sw.js) receives. The server encrypts each message for its subscription (RFC 8291, aes128gcm)
// and signs the push service's request with its VAPID key (RFC 8292); docs/server.md "Web Push (issue 41)".
import { z } from 'zod';
import { resultOf } from './common';

/** What a trader can be told away from the page; each is a 0/1 global trade preference of the same name. */
export const PUSH_KINDS = [
  'push_signals',
  'push_trade_opened',
  'push_trade_closed',
  'push_unprotected',
  'push_refusals',
] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** A signal's life on the page (SPEC.md §9's 99 s countdown): a signal's push lives as long at the push service. */
export const PUSH_SIGNAL_LIFE_S = 99;

/** The languages a push is written in (the page's language when the device subscribed). */
export const pushLanguage = z.enum(['en', 'ua']);
export type PushLanguage = z.infer<typeof pushLanguage>;

/** Bytes a base64url text decodes to (padding ignored); -1 for a length no encoding gives. */
function decodedLength(text: string): number {
  const chars = text.replace(/=+$/, '').length;
  return chars % 4 === 1 ? -1 : Math.floor((chars * 3) / 4);
}

const base64url = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url`)
    .refine((text) => decodedLength(text) === bytes, `${what} must encode ${bytes} bytes`);

/** GET /api/push/get_public_key/: the server's VAPID public key (applicationServerKey), base64url. */
export const pushPublicKeyAnswer = resultOf(
  z.object({ public_key: z.string() }).meta({ id: 'PushPublicKey' }),
);

/**
 * POST /api/push/subscribe/: PushSubscription.toJSON() of this device, and the page's language. Stored per
 * trader and device (the endpoint is the device's), tied to the login that sent it: logout removes it.
 */
export const pushSubscribeBody = z
  .object({
    endpoint: z.url({ protocol: /^https?$/ }).max(2048),
    keys: z.object({
      /** The device's P-256 public key, uncompressed (65 bytes). */
      p256dh: base64url(65, 'keys.p256dh'),
      /** The device's authentication secret (16 bytes). */
      auth: base64url(16, 'keys.auth'),
    }),
    language: pushLanguage.default('en'),
  })
  .meta({ id: 'PushSubscribeBody' });
export type PushSubscribeBody = z.infer<typeof pushSubscribeBody>;

/** POST /api/push/unsubscribe/: this device's endpoint. */
export const pushUnsubscribeBody = z
  .object({ endpoint: z.string().max(2048) })
  .meta({ id: 'PushUnsubscribeBody' });
export type PushUnsubscribeBody = z.infer<typeof pushUnsubscribeBody>;

export const pushSubscriptionAnswer = resultOf(
  z.object({ subscribed: z.boolean() }).meta({ id: 'PushSubscriptionState' }),
);

/** The kinds of message; `kind` is also the preference that lets it through (PUSH_KINDS). */
export const pushMessageKind = z.enum(['signal', 'trade_opened', 'trade_closed', 'unprotected', 'refusal']);
export type PushMessageKind = z.infer<typeof pushMessageKind>;

/**
 * The decrypted payload the service worker gets: the words already in the trader's language, the page a click
 * opens (a path of this site), and what it is about.
 */
export const pushMessage = z
  .object({
    kind: pushMessageKind,
    title: z.string(),
    body: z.string(),
    /** A path of the SPA: /trading?signal=… for a signal, /trade_history?trade=… for a trade. */
    url: z.string().startsWith('/'),
    /** Notifications with one tag replace each other (a trade's news, one signal). */
    tag: z.string(),
    /** Milliseconds since the epoch when the server sent it. */
    sent_at: z.number(),
    /** A signal's card is gone from the page after this (ms since the epoch); a click then opens /trading. */
    expires_at: z.number().optional(),
    signal_uuid: z.string().optional(),
    trade_uuid: z.string().optional(),
    /** The closing status of a closed trade, and its net PNL (USDT, a decimal string). */
    trade_status: z.string().optional(),
    trade_pnl_net: z.string().optional(),
  })
  .meta({ id: 'PushMessage' });
export type PushMessage = z.infer<typeof pushMessage>;

/** The kind of message → the preference that lets it through. */
export const PUSH_KIND_OF: Record<PushMessageKind, PushKind> = {
  signal: 'push_signals',
  trade_opened: 'push_trade_opened',
  trade_closed: 'push_trade_closed',
  unprotected: 'push_unprotected',
  refusal: 'push_refusals',
};
