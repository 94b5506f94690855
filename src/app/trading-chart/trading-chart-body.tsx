// The trading chart's body (issue 18), loaded lazily with lightweight-charts: the focused symbol's last two
// hours of 1-minute candles (GET /symbol/get_symbol_candles/), its forming minute kept from the live prices
// (symbol_price_base_from_core, already in the prices store: no polling), the focused open trade's lines and
// the markers of this trader's trades of the symbol (open, and closed ones of the history day loaded).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { SymbolCandles, Trade } from '../../../contracts';
import { CandleChart } from '../../components/charts/candle-chart';
import { Loader } from '../../components/ui';
import { historyStore } from '../../features/history/history-store';
import { pricesStore } from '../../stores/prices-store';
import { tradesStore } from '../../features/trades/trades-store';
import { translateError, formatTimeOfDay } from '../../lib/i18n';
import { tradeLines, tradeMarkers } from '../../features/trades/trade-chart-lines';
import { getSymbolCandles } from './get-symbol-candles';

/** Two hours of minutes: enough context around a trade, little to fetch when the focus moves. */
const CANDLE_LIMIT = 120;

type Loaded = { symbolUuid: string; candles?: SymbolCandles; error?: string };

function useCandles(symbolUuid: string): Loaded | undefined {
  const [loaded, setLoaded] = useState<Loaded>();
  useEffect(() => {
    let isCurrent = true;
    getSymbolCandles(symbolUuid, CANDLE_LIMIT).then(
      (candles) => isCurrent && setLoaded({ symbolUuid, candles }),
      (error: unknown) => isCurrent && setLoaded({ symbolUuid, error: translateError(error) }),
    );
    return () => {
      isCurrent = false;
    };
  }, [symbolUuid]);
  return loaded?.symbolUuid === symbolUuid ? loaded : undefined;
}

/** The open trade drawn: the focused row's when it is of this symbol and still open, else the first one. */
function useFocusedTrade(symbolUuid: string, tradeUuid: string | undefined): Trade | undefined {
  const trades = useSnapshot(tradesStore);
  const focused = tradeUuid ? trades.trade_by_uuid_dict[tradeUuid] : undefined;
  if (focused && focused.symbol.symbol_uuid === symbolUuid) return focused as Trade;
  const first = trades.trade_uuid_by_symbol_uuid_dict[symbolUuid]?.[0];
  return first ? (trades.trade_by_uuid_dict[first] as Trade | undefined) : undefined;
}

function useSymbolTrades(symbolUuid: string): readonly Trade[] {
  const trades = useSnapshot(tradesStore);
  const history = useSnapshot(historyStore);
  const openUuids = trades.trade_uuid_by_symbol_uuid_dict[symbolUuid];
  return useMemo(() => {
    const open = (openUuids ?? []).map((uuid) => tradesStore.trade_by_uuid_dict[uuid]);
    const closed = history.trade_list.filter((trade) => trade.symbol.symbol_uuid === symbolUuid);
    const byUuid = new Map<string, Trade>();
    for (const trade of [...closed, ...open]) if (trade) byUuid.set(trade.trade_uuid, trade as Trade);
    return [...byUuid.values()];
  }, [openUuids, history.trade_list, symbolUuid]);
}

export function TradingChartBody({
  symbolUuid,
  tradeUuid,
  height,
}: {
  symbolUuid: string;
  tradeUuid: string | undefined;
  height: number;
}) {
  const { t, i18n } = useTranslation();
  const loaded = useCandles(symbolUuid);
  const trade = useFocusedTrade(symbolUuid, tradeUuid);
  const symbolTrades = useSymbolTrades(symbolUuid);

  // Lines are rebuilt only when a price they draw changes (the trade's update also moves its PNL).
  const linesKey = trade
    ? [
        trade.trade_uuid,
        trade.trade_stop_price,
        trade.trade_take_profit_price,
        trade.trade_treiling_stop_price,
        trade.trade_treiling_stop_percent_current,
        trade.trade_liquidation_price,
        i18n.language,
      ].join(' ')
    : '';
  // eslint-disable-next-line react-hooks/exhaustive-deps -- linesKey holds what the lines read
  const lines = useMemo(() => (trade ? tradeLines(trade, t) : []), [linesKey]);
  const markers = useMemo(() => tradeMarkers(symbolTrades, t), [symbolTrades, t]);

  const subscribeLive = useCallback(
    (onPrice: (price: number, timeMs: number) => void) =>
      subscribeKey(pricesStore.symbol_price_by_uuid, symbolUuid, (item) => {
        if (item) onPrice(item.current_price, item.price_time ?? Date.now());
      }),
    [symbolUuid],
  );

  if (!loaded) return <Loader fill />;
  if (!loaded.candles) {
    return (
      <p className="form-error" role="alert" data-testid="trading-chart-error">
        {t('common.error')}: {loaded.error}
      </p>
    );
  }
  const { candles } = loaded;
  return (
    <CandleChart
      candles={candles.candle_list}
      lines={lines}
      markers={markers}
      decimals={candles.symbol_price_precision}
      label={t('chart.title', { pair: candles.symbol_pair })}
      formatTime={formatTimeOfDay}
      height={height}
      subscribeLive={subscribeLive}
    />
  );
}
