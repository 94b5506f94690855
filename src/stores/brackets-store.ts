// The account's leverage brackets per platform and symbol (issue 53): the signal card and auto-open hold a
// trade's notional to the largest position its leverage allows (-2027), with shared-core's orderPlacement. Read
// once a session per platform, in one call for every symbol (GET /fapi/v1/leverageBracket, weight 1), by the
// page's own signed client in client mode, after its first good balance read. Server mode has no page-side key:
// its cards do not know the cap, and the server's open refuses above it before the order (trade-flow.ts).
import { proxy, ref } from 'valtio';
import type { ExchangeClient, LeverageBracket } from '../../shared-core/exchange-client';

type BracketTable = Readonly<Record<string, readonly LeverageBracket[]>>;

interface BracketsState {
  /** Per platform_uuid, per symbol pair; kept as a plain object (valtio ref), replaced whole. */
  by_platform_uuid: Record<string, BracketTable>;
}

export const bracketsStore = proxy<BracketsState>({ by_platform_uuid: {} });

/** Platforms read (or being read) this session. */
const requested = new Set<string>();

/** Reads a platform's brackets once a session; a failed read is tried again after the next balance read. */
export async function loadBracketTable(platformUuid: string, client: ExchangeClient): Promise<void> {
  if (requested.has(platformUuid)) return;
  requested.add(platformUuid);
  try {
    const table = await client.getLeverageBracketTable();
    bracketsStore.by_platform_uuid[platformUuid] = ref(Object.fromEntries(table));
  } catch {
    // Unknown brackets check nothing: the exchange decides (-2027), and the next balance read tries again.
    requested.delete(platformUuid);
  }
}

/** A symbol's brackets on a platform, when read. */
export function bracketsOf(platformUuid: string, symbolPair: string): readonly LeverageBracket[] | undefined {
  return bracketsStore.by_platform_uuid[platformUuid]?.[symbolPair];
}

export function resetBracketsStore(): void {
  requested.clear();
  bracketsStore.by_platform_uuid = {};
}
