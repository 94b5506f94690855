// Faults on demand for tests (issue item 8): added latency, requests that never get an answer, 5xx
// answers, order rejections, clock skew and dropped websockets, for every account or for one API key.
// `...Count` faults hit the next N requests (deterministic); `...Rate` faults hit a share of them, drawn
// from a generator seeded by the exchange seed.
import { z } from 'zod';
import { Rng } from './market/rng.js';

export const FaultConfigSchema = z
  .object({
    /** API key the faults apply to; absent = every request. */
    account: z.string().min(1).optional(),
    latencyMs: z.number().int().min(0).max(120_000).optional(),
    timeoutRate: z.number().min(0).max(1).optional(),
    timeoutCount: z.number().int().min(0).optional(),
    /** How long a timed-out request is held before its connection is dropped without an answer. */
    timeoutMs: z.number().int().min(0).max(600_000).optional(),
    errorRate: z.number().min(0).max(1).optional(),
    errorCount: z.number().int().min(0).optional(),
    errorStatus: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
    rejectRate: z.number().min(0).max(1).optional(),
    rejectCount: z.number().int().min(0).optional(),
    rejectCode: z.number().int().optional(),
    rejectMsg: z.string().optional(),
    clockSkewMs: z.number().int().min(-3_600_000).max(3_600_000).optional(),
    /**
     * The exchange refuses the key itself (-2015, as Binance answers a deleted key, one without the permission,
     * or one whose IP list leaves the caller out): every request with it, its user stream's listen key included.
     */
    refuseKey: z.boolean().optional(),
    /** New websocket connections are closed as soon as they open. */
    refuseWebsockets: z.boolean().optional(),
    /** Drop the open websocket connections now (one-shot; user streams of the account, or all). */
    dropWebsockets: z.boolean().optional(),
    /** Only requests whose path starts with one of these prefixes are affected (default all). */
    paths: z.array(z.string()).optional(),
  })
  .strict();

export type FaultConfig = z.infer<typeof FaultConfigSchema>;

export type FaultAction =
  | { kind: 'timeout'; holdMs: number }
  | { kind: 'error'; status: number }
  | { kind: 'reject'; code: number; msg: string };

const DEFAULT_TIMEOUT_HOLD_MS = 30_000;

export class Faults {
  private global: FaultConfig = {};
  private readonly perAccount = new Map<string, FaultConfig>();
  private readonly rng: Rng;
  onDropWebsockets: (apiKey: string | undefined) => void = () => undefined;

  constructor(seed: number) {
    this.rng = new Rng(seed, 0xfa017);
  }

  set(config: FaultConfig): { global: FaultConfig; accounts: Record<string, FaultConfig> } {
    const { account, dropWebsockets, ...rest } = config;
    if (account) this.perAccount.set(account, { ...this.perAccount.get(account), ...rest });
    else this.global = { ...this.global, ...rest };
    if (dropWebsockets) this.onDropWebsockets(account);
    return this.describe();
  }

  clear(apiKey?: string): void {
    if (apiKey) this.perAccount.delete(apiKey);
    else {
      this.global = {};
      this.perAccount.clear();
    }
  }

  describe(): { global: FaultConfig; accounts: Record<string, FaultConfig> } {
    return { global: this.global, accounts: Object.fromEntries(this.perAccount) };
  }

  /** Account settings override the global ones field by field. */
  private effective(apiKey: string | undefined): FaultConfig {
    const own = apiKey ? this.perAccount.get(apiKey) : undefined;
    return own ? { ...this.global, ...own } : this.global;
  }

  clockSkew(apiKey: string | undefined): number {
    return this.effective(apiKey).clockSkewMs ?? 0;
  }

  latency(apiKey: string | undefined, path: string): number {
    const config = this.effective(apiKey);
    return applies(config, path) ? (config.latencyMs ?? 0) : 0;
  }

  refusesKey(apiKey: string | undefined): boolean {
    return apiKey !== undefined && (this.perAccount.get(apiKey)?.refuseKey ?? false);
  }

  refusesWebsockets(apiKey: string | undefined): boolean {
    return this.effective(apiKey).refuseWebsockets ?? false;
  }

  /** The fault (if any) this request runs into; consumes one unit of a count fault. */
  decide(apiKey: string | undefined, path: string, isNewOrder: boolean): FaultAction | undefined {
    const config = this.effective(apiKey);
    if (!applies(config, path)) return undefined;
    if (this.hit(apiKey, 'timeoutCount', config.timeoutRate)) {
      return { kind: 'timeout', holdMs: config.timeoutMs ?? DEFAULT_TIMEOUT_HOLD_MS };
    }
    if (this.hit(apiKey, 'errorCount', config.errorRate))
      return { kind: 'error', status: config.errorStatus ?? 503 };
    if (isNewOrder && this.hit(apiKey, 'rejectCount', config.rejectRate)) {
      return {
        kind: 'reject',
        code: config.rejectCode ?? -2010,
        msg: config.rejectMsg ?? 'NEW_ORDER_REJECTED',
      };
    }
    return undefined;
  }

  private hit(
    apiKey: string | undefined,
    countField: 'timeoutCount' | 'errorCount' | 'rejectCount',
    rate: number | undefined,
  ): boolean {
    const owner =
      apiKey && this.perAccount.get(apiKey)?.[countField] !== undefined
        ? this.perAccount.get(apiKey)
        : this.global;
    const count = owner?.[countField];
    if (owner && count !== undefined && count > 0) {
      owner[countField] = count - 1;
      return true;
    }
    return rate !== undefined && rate > 0 && this.rng.uniform() < rate;
  }
}

/**
 * A fault's paths match whole path segments: '/fapi/v1/leverage' is that endpoint (and anything under it), never
 * '/fapi/v1/leverageBracket' — a fault meant for the open's setLeverage was spent on its bracket read (issue 53).
 */
function applies(config: FaultConfig, path: string): boolean {
  return (
    !config.paths ||
    config.paths.some(
      (prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`),
    )
  );
}
