// The last requests each account made, for measuring clients (bench/trading/signal-to-order.ts counts the
// round trips a trade click waits on, whichever side sends them): method, path, order type and client id,
// when the request arrived and when its answer left. No parameters, no signature, no key beyond the account's
// own lookup. Read through GET /admin/requests.
export interface LoggedRequest {
  method: string;
  path: string;
  /** The request's symbol, and the order's type and client id (orders only). */
  symbol?: string;
  type?: string;
  clientId?: string;
  /** Exchange time (ms) the request arrived and its answer left. */
  receivedAt: number;
  answeredAt?: number;
  status?: number;
}

const PER_ACCOUNT = 500;

export class RequestLog {
  private readonly byAccount = new Map<string, LoggedRequest[]>();

  begin(apiKey: string | undefined, entry: LoggedRequest): LoggedRequest {
    if (!apiKey) return entry;
    const list = this.byAccount.get(apiKey) ?? [];
    list.push(entry);
    if (list.length > PER_ACCOUNT) list.splice(0, list.length - PER_ACCOUNT);
    this.byAccount.set(apiKey, list);
    return entry;
  }

  of(apiKey: string, since = 0): LoggedRequest[] {
    return (this.byAccount.get(apiKey) ?? []).filter((entry) => entry.receivedAt >= since);
  }
}
