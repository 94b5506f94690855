// The last what-if answer of each platform (issue 42), for the signal cards: beside a signal's accuracy, the
// share of its neuron's trades a replay of the trader's saved settings won. The Trade Preferences panel keeps it
// current (use-what-if.ts); the trading page asks once per platform when it has none (the server answers with
// the saved settings, from its cache when nothing changed).
import { proxy } from 'valtio';
import { whatIfAnswer, type WhatIfResult } from '../../contracts/what-if';
import { WHAT_IF_TIMEOUT_MS } from '../config/constants';
import { apiGet, getStoredToken } from '../lib/api-client';

export const whatIfStore = proxy({ by_platform: {} as Record<string, WhatIfResult> });
const asked = new Set<string>();

/** One question at a time from this page (the server runs one replay per trader). */
let inTurn: Promise<unknown> = Promise.resolve();
export function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const turn = inTurn.then(task, task);
  inTurn = turn.catch(() => undefined);
  return turn;
}

export function keepWhatIf(platformUuid: string, result: WhatIfResult): void {
  whatIfStore.by_platform[platformUuid] = result;
}

/** Asks for the platform's replay with the saved settings, once, when signed in and none is known. */
export function ensureWhatIf(platformUuid: string): void {
  if (asked.has(platformUuid) || whatIfStore.by_platform[platformUuid] || !getStoredToken()) return;
  asked.add(platformUuid);
  void oneAtATime(() =>
    apiGet(
      'trade_preferences/get_what_if/',
      whatIfAnswer,
      { platform_uuid: platformUuid },
      { timeoutMs: WHAT_IF_TIMEOUT_MS },
    ),
  )
    .then(({ result }) => keepWhatIf(platformUuid, result))
    // Not shown: the card simply has no replayed figure; the next page load asks again.
    .catch(() => asked.delete(platformUuid));
}

export function resetWhatIfStore(): void {
  whatIfStore.by_platform = {};
  asked.clear();
}
