// A Web Push service and a device for tests and benchmarks (issue 41), offline: an HTTP endpoint that keeps what
// the server posts, and the device's keys, with which a payload is decrypted as a browser would (RFC 8291,
// aes128gcm, written here from the RFC with node:crypto, apart from the web-push library that encrypts it) and
// the VAPID signature checked (RFC 8292, with jose).
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { pushMessage, type PushMessage } from '../../contracts';

export interface PushDelivery {
  /** The device (the endpoint's last path segment). */
  device: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** performance.timeOrigin + performance.now() when the request arrived, ms. */
  at: number;
}

export interface PushDevice {
  id: string;
  endpoint: string;
  /** PushSubscription.toJSON()'s keys. */
  keys: { p256dh: string; auth: string };
  /** Decrypts a delivery's body (RFC 8291) and parses it as a push message. */
  decrypt(body: Buffer): PushMessage;
}

export interface PushEndpoint {
  origin: string;
  deliveries: PushDelivery[];
  /** A new device subscribed at this push service. */
  device(): PushDevice;
  /** The push service says the device is gone (410) from now on. */
  gone(device: PushDevice): void;
  /** Waits for a delivery to `device` matching `match` (decrypted), up to timeoutMs. */
  next(
    device: PushDevice,
    match?: (message: PushMessage) => boolean,
    timeoutMs?: number,
  ): Promise<PushMessage>;
  /** The same, with the time the delivery arrived (performance.timeOrigin + performance.now(), ms). */
  arrival(
    device: PushDevice,
    match?: (message: PushMessage) => boolean,
    timeoutMs?: number,
  ): Promise<{ message: PushMessage; at: number }>;
  close(): Promise<void>;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 §3.4 / RFC 8188: one aes128gcm record, as the user agent decrypts it. */
export function decryptAes128gcm(body: Buffer, uaPrivate: Buffer, uaPublic: Buffer, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(uaPrivate);
  const ecdhSecret = ecdh.computeSecret(asPublic);
  const prkKey = hmac(auth, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = hmac(prkKey, Buffer.concat([keyInfo, Buffer.from([1])])).subarray(0, 32);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02 followed by zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`; the JWT is ES256, signed with the key `k` names,
 * for the endpoint's origin, not expired. Answers the public key.
 */
export async function verifyVapid(headers: http.IncomingHttpHeaders, origin: string): Promise<string> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(headers.authorization ?? ''));
  if (!match) throw new Error(`no VAPID authorization: ${String(headers.authorization)}`);
  const [, token, key] = match as unknown as [string, string, string];
  const raw = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  if (decodeProtectedHeader(token).alg !== 'ES256') throw new Error('VAPID JWT is not ES256');
  const { payload } = await jwtVerify(token, publicKey, { audience: origin });
  if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub))
    throw new Error('no VAPID subject');
  return key;
}

export async function startPushEndpoint(): Promise<PushEndpoint> {
  const deliveries: PushDelivery[] = [];
  const goneDevices = new Set<string>();
  const waiters = new Set<() => void>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const device = (request.url ?? '').split('/').pop() ?? '';
      if (goneDevices.has(device)) {
        response.writeHead(410).end();
        return;
      }
      deliveries.push({
        device,
        headers: request.headers,
        body: Buffer.concat(chunks),
        at: performance.timeOrigin + performance.now(),
      });
      response.writeHead(201).end();
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const endpoint: PushEndpoint = {
    origin,
    deliveries,
    device() {
      const id = randomBytes(8).toString('hex');
      const ecdh = createECDH('prime256v1');
      const uaPublic = ecdh.generateKeys();
      const uaPrivate = ecdh.getPrivateKey();
      const auth = randomBytes(16);
      return {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: uaPublic.toString('base64url'), auth: auth.toString('base64url') },
        decrypt: (body) =>
          pushMessage.parse(JSON.parse(decryptAes128gcm(body, uaPrivate, uaPublic, auth).toString('utf8'))),
      };
    },
    gone(device) {
      goneDevices.add(device.id);
    },
    async next(device, match, timeoutMs) {
      return (await endpoint.arrival(device, match, timeoutMs)).message;
    },
    async arrival(device, match = () => true, timeoutMs = 10_000) {
      const seen = new Set<PushDelivery>();
      const found = () => {
        for (const delivery of deliveries) {
          if (delivery.device !== device.id || seen.has(delivery)) continue;
          seen.add(delivery);
          const message = device.decrypt(delivery.body);
          if (match(message)) return { message, at: delivery.at };
        }
        return undefined;
      };
      const first = found();
      if (first) return first;
      return new Promise<{ message: PushMessage; at: number }>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no matching push for device ${device.id} within ${timeoutMs} ms`));
        }, timeoutMs);
        const wake = () => {
          const message = found();
          if (!message) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(message);
        };
        waiters.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return endpoint;
}
