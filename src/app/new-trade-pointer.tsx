// Issue 53: after Buy / Sell on a card the new trade's row lands in the open-trades table far below the cards
// (700 px below the fold at 1440×900, more on a phone) and nothing pointed to it. While the row of a trade this
// page just opened is out of view, a button at the bottom of the page says so and scrolls to it; it goes once
// the row has been in view, or when the trader scrolls there.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { proxy, useSnapshot } from 'valtio';
import { tradesStore } from '../features/trades/trades-store';

export const newTradeStore = proxy<{ signal_uuid: string | undefined }>({ signal_uuid: undefined });

/** The page opened a trade from this signal: point to its row once it is listed. */
export function pointToNewTrade(signalUuid: string): void {
  newTradeStore.signal_uuid = signalUuid;
}

export function resetNewTradePointer(): void {
  newTradeStore.signal_uuid = undefined;
}

const rowOf = (tradeUuid: string) =>
  document.querySelector<HTMLElement>(
    `[data-testid="trade-row"][data-trade-uuid="${CSS.escape(tradeUuid)}"]`,
  );

export function NewTradePointer() {
  const { t } = useTranslation();
  const { signal_uuid } = useSnapshot(newTradeStore);
  const trades = useSnapshot(tradesStore.trade_by_uuid_dict);
  const trade = signal_uuid
    ? Object.values(trades).find((item) => item.signal_uuid === signal_uuid)
    : undefined;
  const tradeUuid = trade?.trade_uuid;
  const [isOutOfView, setIsOutOfView] = useState(false);
  useEffect(() => {
    if (!tradeUuid) return;
    let observer: IntersectionObserver | undefined;
    // The row renders after the list has it: looked for on the next frames.
    let frame = 0;
    const watch = () => {
      const row = rowOf(tradeUuid);
      if (!row) {
        frame = requestAnimationFrame(watch);
        return;
      }
      observer = new IntersectionObserver(([entry]) => {
        if (entry?.isIntersecting) {
          setIsOutOfView(false);
          resetNewTradePointer();
        } else setIsOutOfView(true);
      });
      observer.observe(row);
    };
    watch();
    return () => {
      cancelAnimationFrame(frame);
      observer?.disconnect();
      setIsOutOfView(false);
    };
  }, [tradeUuid]);
  if (!trade || !isOutOfView) return null;
  const show = () => {
    rowOf(trade.trade_uuid)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  };
  return (
    <button type="button" className="new-trade-pointer" onClick={show} data-testid="new-trade-pointer">
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path
          d="M8 3v10M3.5 8.5L8 13l4.5-4.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
        />
      </svg>
      {t('trades.new_trade_pointer', { symbol: trade.symbol.symbol_name })}
    </button>
  );
}
