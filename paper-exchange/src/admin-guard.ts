// Who may use /admin/* (issue 17): it funds accounts, pins prices and injects faults, so a web page in a
// browser on the same host must not reach it. Loopback callers only (as before), and besides:
// - no Origin header: browsers send one with every cross-origin request and every POST, tools do not;
// - the Host header names the loopback interface (localhost, 127.0.0.1, [::1]): a DNS-rebound name is refused;
// - a request with a body says Content-Type: application/json (a text/plain form post needs no preflight);
// - anything that changes state (every method but GET and HEAD) carries the admin token in X-Admin-Token. The
//   token is random, kept in the exchange's data folder (admin.token, mode 0600) so the process that embeds or
//   shares the exchange can read it; an exchange kept in memory makes one per start.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';

export const ADMIN_TOKEN_HEADER = 'x-admin-token';
export const ADMIN_TOKEN_FILE = 'admin.token';

const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const READ_ONLY_METHODS = new Set(['GET', 'HEAD']);

/** The admin token of a data folder (made on first use, mode 0600), or a fresh one for an in-memory exchange. */
export function loadAdminToken(dataDir: string | undefined): string {
  if (!dataDir) return randomBytes(32).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, ADMIN_TOKEN_FILE);
  try {
    // 'wx': two processes starting on one folder keep the first token.
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const token = fs.readFileSync(file, 'utf8').trim();
  if (token.length < 32) throw new Error(`${file} does not hold an admin token`);
  return token;
}

/** The host name of a Host header without its port ('[::1]:8081' → '[::1]'). */
function hostName(host: string): string {
  const bracket = host.startsWith('[') ? host.indexOf(']') : -1;
  if (bracket > 0) return host.slice(0, bracket + 1).toLowerCase();
  return (host.split(':')[0] ?? '').toLowerCase();
}

function sameToken(given: string, expected: string): boolean {
  // Digests first: equal lengths for timingSafeEqual, and no early exit on a length mismatch.
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const refuse = (status: number, msg: string) => new ApiError(-1002, msg, status);

/** onRequest hook of the /admin scope: throws {code, msg} with a 4xx when the request may not go on. */
export function adminGuard(token: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!LOOPBACK_ADDRESSES.has(request.socket.remoteAddress ?? '')) {
      throw refuse(403, 'You are not authorized to execute this request.');
    }
    if (request.headers.origin !== undefined) {
      throw refuse(403, 'Admin requests from a web page (with an Origin header) are refused.');
    }
    if (!LOOPBACK_HOSTS.has(hostName(request.headers.host ?? ''))) {
      throw refuse(403, 'The Host header must name the loopback interface (localhost, 127.0.0.1 or [::1]).');
    }
    const length = Number(request.headers['content-length'] ?? 0);
    const hasBody = length > 0 || request.headers['transfer-encoding'] !== undefined;
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (hasBody && mediaType !== 'application/json') {
      throw refuse(415, 'Admin request bodies must be sent as Content-Type: application/json.');
    }
    if (READ_ONLY_METHODS.has(request.method)) return;
    const given = request.headers[ADMIN_TOKEN_HEADER];
    if (typeof given !== 'string' || !sameToken(given, token)) {
      throw refuse(401, 'Missing or wrong X-Admin-Token header.');
    }
  };
}
