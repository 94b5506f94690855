// /api/push/* (issue 41; contracts/push.ts): the server's VAPID key and this device's subscription.
import {
  pushPublicKeyAnswer,
  pushSubscriptionAnswer,
  type PushSubscribeBody,
  type PushUnsubscribeBody,
} from '../../../contracts/push';
import { apiGet, apiPost } from '../../lib/api-client';

/** GET /api/push/get_public_key/: the applicationServerKey, base64url. */
export async function getPushPublicKey(): Promise<string> {
  return (await apiGet('push/get_public_key/', pushPublicKeyAnswer)).result.public_key;
}

/** POST /api/push/subscribe/: stores (or refreshes) this device's subscription and language. */
export async function postPushSubscribe(body: PushSubscribeBody): Promise<void> {
  await apiPost('push/subscribe/', body, pushSubscriptionAnswer);
}

/** POST /api/push/unsubscribe/: forgets this device. */
export async function postPushUnsubscribe(body: PushUnsubscribeBody): Promise<void> {
  await apiPost('push/unsubscribe/', body, pushSubscriptionAnswer);
}
