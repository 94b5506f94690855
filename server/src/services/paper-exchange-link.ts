// What the server needs of the paper exchange beyond its Binance API (the house account and the backfill,
// docs/server.md "House account", "Backfill"): its market's seed and span, and funded accounts. From the
// embedded one in process, or from one that runs apart (PAPER_EXCHANGE_URL, so several instances share it)
// through its loopback-only admin API, whose changes need the exchange's admin token (PAPER_EXCHANGE_ADMIN_TOKEN,
// or the file PAPER_EXCHANGE_ADMIN_TOKEN_FILE; by default DATA_DIR/paper-exchange/admin.token, where
// `npm run paper-exchange` keeps it when both use the default ./data).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { paperAccount } from '../../../contracts';
import { ADMIN_TOKEN_FILE, ADMIN_TOKEN_HEADER } from '../../../paper-exchange/src/admin-guard';
import type { PaperExchangeHandle } from '../../../paper-exchange/src/index';

export interface PaperExchangeLink {
  /** Its Binance-compatible REST base URL and its websocket base URL. */
  url: string;
  wsUrl: string;
  /** generateHistory({ seed, days: (historyEndTime - originTime) / day, endTime: historyEndTime }). */
  seed: number;
  originTime: number;
  historyEndTime: number;
  /** The X-Admin-Token of its /admin/* API ('Create paper account' calls it over HTTP). */
  adminToken: string;
  createAccount(balance: string): Promise<{ apiKey: string; apiSecret: string }>;
}

export function embeddedPaperExchange(handle: PaperExchangeHandle): PaperExchangeLink {
  return {
    url: handle.url,
    wsUrl: handle.wsUrl,
    seed: handle.seed,
    originTime: handle.originTime,
    historyEndTime: handle.historyEndTime,
    adminToken: handle.adminToken,
    createAccount: async (balance) => handle.admin.createAccount(balance),
  };
}

/** The admin token of a paper exchange that runs apart: from the environment, a named file or the default file. */
export function remoteAdminToken(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.PAPER_EXCHANGE_ADMIN_TOKEN) return env.PAPER_EXCHANGE_ADMIN_TOKEN;
  const file = env.PAPER_EXCHANGE_ADMIN_TOKEN_FILE || path.join(dataDir, 'paper-exchange', ADMIN_TOKEN_FILE);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new Error(
      `PAPER_EXCHANGE_URL needs the exchange's admin token: set PAPER_EXCHANGE_ADMIN_TOKEN or ` +
        `PAPER_EXCHANGE_ADMIN_TOKEN_FILE (${file} cannot be read)`,
    );
  }
}

const ADMIN_TIMEOUT_MS = 10_000;
const market = z.object({ seed: z.number(), originTime: z.number(), historyEndTime: z.number() });

async function admin(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(ADMIN_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${new URL(url).pathname} answered HTTP ${response.status}`);
  return response.json();
}

/** The paper exchange at `url` (its admin API must accept this host: it answers loopback callers only). */
export async function remotePaperExchange(url: string, adminToken: string): Promise<PaperExchangeLink> {
  const base = url.replace(/\/+$/, '');
  const { seed, originTime, historyEndTime } = market.parse(await admin(`${base}/admin/market`));
  return {
    url: base,
    wsUrl: base.replace(/^http/, 'ws'),
    seed,
    originTime,
    historyEndTime,
    adminToken,
    createAccount: async (balance) => {
      const account = paperAccount.parse(
        await admin(`${base}/admin/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [ADMIN_TOKEN_HEADER]: adminToken },
          body: JSON.stringify({ balance }),
        }),
      );
      return { apiKey: account.api_key, apiSecret: account.api_secret };
    },
  };
}
