// The address an exchange sees our server's requests come from (docs/relay.md "IP allow-list"): Binance asks
// for IP-restricted keys for futures trading, and with the relay and server mode every request of a trader
// leaves from here. EXCHANGE_EGRESS_IP names it; otherwise it is asked once at start from an address echo
// service (EXCHANGE_EGRESS_IP_URL, empty to ask none). An exchange on this machine sees a loopback address.

const DISCOVERY_TIMEOUT_MS = 3_000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const IP_TEXT = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]{2,39})$/i;

export class EgressIp {
  private found: string | undefined;

  constructor(private readonly configured: string | undefined) {}

  /** Asks the echo service once, in the background; the answer is kept when it looks like an address. */
  discover(url: string | undefined, log: { info(msg: string): void }): void {
    if (this.configured || !url) return;
    void fetch(url, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) })
      .then(async (response) => (response.ok ? (await response.text()).trim() : ''))
      .then((text) => {
        if (!IP_TEXT.test(text)) return;
        this.found = text;
        log.info(`exchange egress address: ${text} (from ${url})`);
      })
      .catch(() => log.info(`exchange egress address: not found (${url} did not answer)`));
  }

  /** The address the exchange at `baseUrl` sees, or null while it is not known. */
  forExchange(baseUrl: string): string | null {
    let host: string;
    try {
      host = new URL(baseUrl).hostname.toLowerCase();
    } catch {
      return null;
    }
    if (LOOPBACK_HOSTS.has(host) || host.startsWith('127.')) return host === '[::1]' ? '::1' : '127.0.0.1';
    return this.configured ?? this.found ?? null;
  }
}
