// Process configuration from the environment (README "Configuration"). Units are in the names.
import path from 'node:path';

/** Paper accounts a trader may create in 24 h unless PAPER_ACCOUNTS_PER_DAY says otherwise. */
export const PAPER_ACCOUNTS_PER_DAY = 5;

export interface ServerConfig {
  host: string;
  port: number;
  /** Port of the embedded paper exchange; ignored when exchangeUrl is set. */
  paperExchangePort: number;
  /** Base URL of an external Binance-compatible exchange; undefined = start the embedded paper exchange. */
  exchangeUrl: string | undefined;
  /**
   * Base URL of a paper exchange that runs apart (`npm run paper-exchange`), used instead of starting one: the
   * paper platform, the house and the backfill use it, so several instances can share it. Not with exchangeUrl.
   */
  paperExchangeUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Folder of the built SPA (vite build); served at / when present. */
  staticDir: string;
  logLevel: string;
  /** The embedded paper exchange sends CORS headers (a developer's direct road; Binance sends none). */
  paperExchangeCors: boolean;
  /** The address exchanges see our requests come from, when configured (docs/relay.md). */
  exchangeEgressIp: string | undefined;
  /** An address echo service asked at start when exchangeEgressIp is not set; undefined asks none. */
  exchangeEgressIpUrl: string | undefined;
  /** Whose X-Forwarded-For / -Proto to believe (Fastify trustProxy): none, all, or proxy addresses. */
  trustProxy: boolean | string;
  /** Paper accounts a trader may create in 24 h (PAPER_ACCOUNTS_PER_DAY; issue 38 item 6). */
  paperAccountsPerDay: number;
  /** The VAPID subject the push services may contact (SIGNALDESK_PUSH_CONTACT; issue 41). */
  pushContact: string;
  /** Origins of push services accepted besides the known ones (PUSH_ENDPOINT_ORIGINS, comma-separated). */
  pushEndpointOrigins: string[];
}

/** The VAPID subject when SIGNALDESK_PUSH_CONTACT is unset (push services want a contact; set your own). */
export const DEFAULT_PUSH_CONTACT = 'mailto:push@signaldesk.invalid';

/** PUSH_ENDPOINT_ORIGINS: comma-separated origins (scheme://host[:port]); each must parse as a URL. */
export function parseOrigins(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      try {
        return new URL(item).origin;
      } catch {
        throw new Error(
          `PUSH_ENDPOINT_ORIGINS takes origins such as https://push.example.com, not '${item}'`,
        );
      }
    });
}

/**
 * TRUST_PROXY: unset, '' or 'false' → trust no proxy (the socket's address and protocol count); 'true' → any
 * (only when nothing but the proxy can reach the port); otherwise the proxies' addresses, CIDR ranges or
 * proxy-addr's names ('loopback', 'uniquelocal'), comma-separated. Fastify 5 trusts nobody for a bare hop
 * count (it cannot check the immediate peer), so a number is refused rather than silently ignored.
 */
export function parseTrustProxy(raw: string | undefined): boolean | string {
  const text = raw?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) {
    throw new Error(
      `TRUST_PROXY takes 'true' or the proxies' addresses (e.g. loopback), not a hop count: '${text}'`,
    );
  }
  return text;
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new Error(`${name} must be a port number (0-65535), got '${raw}'`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  if (env.EXCHANGE_URL && env.PAPER_EXCHANGE_URL) {
    throw new Error('Set EXCHANGE_URL or PAPER_EXCHANGE_URL, not both');
  }
  return {
    host: env.HOST || '0.0.0.0',
    port: intFromEnv('PORT', 8080),
    paperExchangePort: intFromEnv('PAPER_EXCHANGE_PORT', 8081),
    exchangeUrl: env.EXCHANGE_URL || undefined,
    paperExchangeUrl: env.PAPER_EXCHANGE_URL?.replace(/\/+$/, '') || undefined,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    staticDir: path.resolve(env.STATIC_DIR || './dist'),
    logLevel: env.LOG_LEVEL || 'info',
    paperExchangeCors: env.PAPER_EXCHANGE_CORS === '1',
    exchangeEgressIp: env.EXCHANGE_EGRESS_IP?.trim() || undefined,
    exchangeEgressIpUrl:
      env.EXCHANGE_EGRESS_IP_URL === undefined
        ? 'https://api.ipify.org'
        : env.EXCHANGE_EGRESS_IP_URL || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    paperAccountsPerDay: intFromEnv('PAPER_ACCOUNTS_PER_DAY', PAPER_ACCOUNTS_PER_DAY),
    pushContact: env.SIGNALDESK_PUSH_CONTACT?.trim() || DEFAULT_PUSH_CONTACT,
    pushEndpointOrigins: parseOrigins(env.PUSH_ENDPOINT_ORIGINS),
  };
}
