import { useEffect, useRef } from 'react';
import { SIGNAL_TICK_MS } from '../../config/constants';
import { preferencesStore } from '../../stores/preferences-store';
import { knownRiskLimitRefusal } from '../../stores/risk-limits-store';
import { symbolsStore } from '../../stores/symbols-store';
import { bracketsOf } from '../../stores/brackets-store';
import { pricesStore } from '../../stores/prices-store';
import { tradeTokensStore } from '../../stores/trade-tokens-store';
import { expireSignals, signalsStore } from './signals-store';
import { isPlaceable, signalPlacement } from './signal-placement';
import { isAutoOpenDue, tradeFromSignal, type OpenTradeFromSignal } from './trade-from-signal';

/**
 * The signal cards' clock, run once for the session (in the layout) so cards expire and auto-open whichever
 * page is shown: every second, cards whose 99 s countdown reached 0 are removed and cards that have run
 * trade_auto_open_delay seconds are traded with `openTrade`, each at most once (SPEC.md §4 "Signal card"),
 * none while a risk limit is reached (stores/risk-limits-store.ts) and none the exchange would refuse with the
 * trader's margin and leverage (issue 53: the card says why and offers the smallest margin that passes).
 */
export function useSignalTimers(isActive: boolean, openTrade: OpenTradeFromSignal): void {
  const autoOpened = useRef(new Set<string>());
  useEffect(() => {
    if (!isActive) return;
    const attempted = autoOpened.current;
    const tick = () => {
      const now = Date.now();
      expireSignals(now);
      const delay = preferencesStore.trade_preferences?.trade_auto_open_delay ?? 0;
      const minimalAccuracy = preferencesStore.trade_preferences?.minimal_accuracy;
      // A risk limit reached stops auto-open (issue 18): the cards wait, and open once it is lifted.
      const isLimited = knownRiskLimitRefusal() !== undefined;
      for (const signalUuid of signalsStore.signal_list) {
        const signal = signalsStore.signal_by_uuid[signalUuid];
        const start = signalsStore.countdown_start_by_uuid[signalUuid];
        if (!signal || start === undefined || attempted.has(signalUuid) || isLimited) continue;
        const due = isAutoOpenDue(signal, now - start, {
          autoOpenDelayS: delay,
          minimalAccuracyPercent: minimalAccuracy,
          tokenLevel: tradeTokensStore.token_by_platform_uuid[signal.platform_uuid]?.level,
          placeable: isPlaceable(
            signalPlacement(
              signal,
              preferencesStore.platform_preferences_by_uuid[signal.platform_uuid],
              symbolsStore.symbol_dict[signal.symbol.symbol_uuid],
              {
                price: pricesStore.symbol_price_by_uuid[signal.symbol.symbol_uuid]?.current_price,
                brackets: bracketsOf(signal.platform_uuid, signal.symbol.symbol_pair),
              },
            ),
          ),
        });
        if (!due) continue;
        attempted.add(signalUuid);
        void tradeFromSignal(signalUuid, openTrade);
      }
      // Forget cards that are gone, so the set stays as small as the list.
      for (const signalUuid of attempted) {
        if (!signalsStore.signal_by_uuid[signalUuid]) attempted.delete(signalUuid);
      }
    };
    const timer = setInterval(tick, SIGNAL_TICK_MS);
    return () => clearInterval(timer);
  }, [isActive, openTrade]);
}
