import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { snapshot, useSnapshot, type Snapshot } from 'valtio';
import { TradeError, TradeStatus, type Trade } from '../../../../contracts';
import { DirectionIcon, Loader, signTone, TradeDirection } from '../../../components/ui';
import { StatusBadge } from '../../../components/ui/status-badge';
import { MARGIN_DECIMALS, PNL_DECIMALS, VIRTUAL_ROWS_FROM } from '../../../config/constants';
import { formatFixed } from '../../../lib/format';
import { TradeTokenLevel } from '../../../stores/token-level';
import { tradeTokensStore } from '../../../stores/trade-tokens-store';
import { closeTrade } from '../trades-actions';
import { requestCloseConfirm, requestPinToClose, tradesStore } from '../trades-store';
import { preferencesStore } from '../../../stores/preferences-store';
import { TradeOrigin } from './trade-origin';
import { TradeStatusButton } from './trade-status-button';
import { FeeCell, LiquidationCell, NetPnlCell } from './trade-cost-cells';
import { useDetailParam } from '../../../lib/use-detail-param';
import { useOnScreen } from '../../../lib/use-on-screen';

/** The query parameter that opens 'Trade Trend Data' (SPEC.md §2 Trading screen). */
export const TRADE_DETAIL_PARAM = 'trade_detail_uuid';

function TradeErrorMarker({ tradeError }: { tradeError: string }) {
  const { t } = useTranslation();
  const text = t(`trades.trade_error.${tradeError}`, { defaultValue: t('trades.trade_error.unknown') });
  return (
    <span className="trade-error-marker" title={text} role="img" aria-label={text} data-testid="trade-error">
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path d="M8 1.5l7 13H1z" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
        <path d="M8 6v4M8 11.8v.2" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
    </span>
  );
}

/**
 * Who closes the trade with no page open (issue 35): 'Exchange' when the exchange holds the stop, the take profit
 * and the trailing stop; 'Signaldesk' when Signaldesk's monitor holds an exit (the preference off, or the exchange
 * could not hold it; the title says why); 'Unprotected' (red) when the position has no stop on the exchange.
 */
function ExitsBadge({ trade }: { trade: Snapshot<Trade> }) {
  const { t } = useTranslation();
  const exits = trade.trade_exits;
  const state =
    trade.trade_error === TradeError.STOP_MISSING
      ? 'unprotected'
      : exits?.take_profit.held_by === 'exchange' && exits.trailing.held_by === 'exchange'
        ? 'exchange'
        : 'signaldesk';
  const reasons = (['take_profit', 'trailing'] as const).flatMap((exit) => {
    const hold = exits?.[exit];
    return hold?.held_by === 'signaldesk' ? [`${t(`trades.exits.${exit}`)}: ${hold.reason}`] : [];
  });
  // The stop's market backstop (issue 54): said in the title; where the exchange refused it, on the row too.
  const backstop = trade.trade_backstop;
  const backstopLine =
    backstop?.held_by === 'exchange'
      ? t('trades.exits.backstop_held', { price: backstop.price })
      : backstop?.held_by === 'signaldesk'
        ? `${t('trades.exits.backstop_missing')}: ${backstop.reason}`
        : undefined;
  const title = [t(`trades.exits.title.${state}`), ...reasons, ...(backstopLine ? [backstopLine] : [])].join(
    '\n',
  );
  return (
    <>
      <span className={`exits-badge is-${state}`} title={title} data-testid="trade-exits" data-state={state}>
        {t(`trades.exits.${state}`)}
      </span>
      {backstop?.held_by === 'signaldesk' && state !== 'unprotected' ? (
        <span className="exits-gap-note" title={backstopLine} data-testid="trade-backstop-missing">
          {t('trades.exits.backstop_missing')}
        </span>
      ) : null}
    </>
  );
}

interface TradeRowProps {
  /** The trade's proxy in the store: the row subscribes to this trade alone. */
  trade: Trade;
  onOpenDetail: (tradeUuid: string) => void;
  /** Virtual rows only: the row's place (0 = newest) and the virtualizer's measuring ref. */
  index?: number;
  measureRef?: (row: HTMLTableRowElement | null) => void;
}

/** The cells from 'Now' to 'SL': the numbers a price changes, and margin, quantity and fees between them. */
function TradeNumberCells({ trade }: { trade: Snapshot<Trade> }) {
  const { t } = useTranslation();
  return (
    <>
      <td
        className="is-numeric"
        data-testid="trade-current-price"
        data-col="now"
        data-label={t('trades.column.now')}
      >
        <span className="trade-now">
          <DirectionIcon direction={trade.trade_last_update_price} />
          {formatFixed(trade.trade_current_price, trade.symbol.symbol_price_precision)}
        </span>
      </td>
      <LiquidationCell trade={trade} />
      <td className="is-numeric" data-col="margin" data-label={t('trades.column.margin')}>
        {formatFixed(trade.trade_margin, MARGIN_DECIMALS)}
      </td>
      <td className="is-numeric" data-col="quantity" data-label={t('trades.column.quantity')}>
        {trade.trade_quantity}
      </td>
      <td
        className={`is-numeric ${signTone(trade.trade_pnl_current)}`}
        data-testid="trade-pnl"
        data-col="pnl"
        data-label={t('trades.column.pnl')}
      >
        {formatFixed(trade.trade_pnl_current, PNL_DECIMALS)}
      </td>
      <td
        className={`is-numeric ${signTone(trade.trade_roe_current)}`}
        data-testid="trade-roe"
        data-col="roe"
        data-label={t('trades.column.roe')}
      >
        {formatFixed(trade.trade_roe_current, PNL_DECIMALS)}
      </td>
      <NetPnlCell trade={trade} />
      <FeeCell trade={trade} />
      <td
        className={`is-numeric ${signTone(trade.trade_treiling_stop_percent_current)}`}
        data-testid="trade-sl"
        data-col="sl"
        data-label={t('trades.column.sl')}
      >
        {formatFixed(trade.trade_treiling_stop_percent_current, PNL_DECIMALS)}
      </td>
    </>
  );
}

/** While the row is on screen: subscribed to the trade, so each recomputation redraws these cells alone. */
function LiveNumberCells({ trade }: { trade: Trade }) {
  return <TradeNumberCells trade={useSnapshot(trade)} />;
}

/** Off screen: the numbers as they are now, redrawn by nothing until the row comes back into view. */
function FrozenNumberCells({ trade }: { trade: Trade }) {
  return <TradeNumberCells trade={snapshot(trade)} />;
}

/**
 * One open trade (SPEC.md §2): it redraws when its own trade changes, never because another trade's price
 * moved (rows are memoised and each subscribes to its own trade object). The row reads only what a price
 * does not change (a snapshot re-renders for the fields it read); the numbers are the cells above, so a price
 * redraws a few text cells, not the row with its translated buttons, and nothing at all while the row is
 * scrolled out of view (bench/spa/trading.ts).
 */
const TradeRow = memo(function TradeRow({
  trade: tradeProxy,
  onOpenDetail,
  index,
  measureRef,
}: TradeRowProps) {
  const { t } = useTranslation();
  const trade = useSnapshot(tradeProxy);
  const uuid = trade.trade_uuid;
  const isProcessing = useSnapshot(tradesStore.processing_by_uuid)[uuid] === true;
  const sinceMs = useSnapshot(tradesStore.ui_status_since_by_uuid)[uuid];
  const level = useSnapshot(tradeTokensStore).token_by_platform_uuid[trade.platform_uuid]?.level;
  // Locked by a missing or wrong PIN (after a reload): Close asks for the PIN, then closes (issue 36).
  const needsPin = level === TradeTokenLevel.NO_PIN_CODE || level === TradeTokenLevel.WRONG_PIN_CODE;
  const canClose = (level === TradeTokenLevel.TRADE_AVAILABLE || needsPin) && !isProcessing;
  const precision = trade.symbol.symbol_price_precision;
  const pair = trade.symbol.symbol_pair;
  const rowRef = useRef<HTMLTableRowElement>(null);
  const onScreen = useOnScreen(rowRef);
  const setRow = useCallback(
    (row: HTMLTableRowElement | null) => {
      rowRef.current = row;
      measureRef?.(row);
    },
    [measureRef],
  );
  return (
    <tr
      ref={setRow}
      data-testid="trade-row"
      data-trade-uuid={uuid}
      data-index={index}
      aria-rowindex={index === undefined ? undefined : index + 2}
      aria-busy={isProcessing}
    >
      <td data-col="coin">
        <span className="trade-coin">
          <span className="trade-coin-name" title={pair}>
            {trade.symbol.symbol_name}
          </span>
          <TradeDirection direction={trade.trade_direction} />
          {trade.trade_error ? <TradeErrorMarker tradeError={trade.trade_error} /> : null}
          <ExitsBadge trade={trade} />
        </span>
        <span className="trade-chips">
          <TradeOrigin trade={trade} />
        </span>
      </td>
      <td
        className="is-numeric"
        data-testid="trade-open-price"
        data-col="open"
        data-label={t('trades.column.open')}
      >
        {formatFixed(trade.trade_open_price, precision)}
      </td>
      {onScreen ? <LiveNumberCells trade={tradeProxy} /> : <FrozenNumberCells trade={tradeProxy} />}
      <td className="trade-actions-cell" data-col="actions">
        <div className="trade-actions">
          {trade.trade_ui_status && sinceMs !== undefined ? (
            <TradeStatusButton
              tradeUuid={uuid}
              uiStatus={trade.trade_ui_status}
              sinceMs={sinceMs}
              isProcessing={isProcessing}
              exits={trade.trade_exits}
            />
          ) : (
            <StatusBadge status={TradeStatus.OPEN} testId="trade-status" />
          )}
          <button
            type="button"
            className="icon-button"
            onClick={() => onOpenDetail(uuid)}
            aria-label={t('trades.open_detail', { pair })}
            title={t('trades.open_detail', { pair })}
            data-testid="trade-detail"
          >
            <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
              <path
                d="M3 15l4-5 3 2.5L16 5"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.7"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
              <path d="M3 17.5h14" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
            </svg>
          </button>
          <button
            type="button"
            className="icon-button"
            onClick={() => {
              // Locked: the PIN dialog is the question. Otherwise Close asks first unless one-click close is on.
              if (needsPin) requestPinToClose(uuid);
              else if (preferencesStore.trade_preferences?.trade_one_click_close === 1) void closeTrade(uuid);
              else requestCloseConfirm(uuid);
            }}
            disabled={!canClose}
            aria-busy={isProcessing}
            aria-label={isProcessing ? t('trades.closing', { pair }) : t('trades.close', { pair })}
            title={
              isProcessing
                ? t('trades.closing', { pair })
                : needsPin
                  ? t('trades.close_needs_pin', { pair })
                  : canClose
                    ? t('trades.close', { pair })
                    : t('trades.close_disabled')
            }
            data-testid="trade-close"
          >
            {isProcessing ? (
              <Loader size={14} />
            ) : (
              <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
                <path
                  d="M3 3l10 10M13 3L3 13"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinecap="round"
                />
              </svg>
            )}
          </button>
        </div>
      </td>
    </tr>
  );
});

/**
 * A row's height before it is measured: the coin's two lines (the name, then the mode chip, issue 39), the
 * padding and the border: 51 px in Chromium (tests/e2e/many-trades.test.ts prints it).
 */
const ROW_ESTIMATE_PX = 51;
/** Rows rendered beyond each edge of the screen, so a scroll shows rows already drawn. */
const OVERSCAN_ROWS = 8;

/** The rows of `uuids` on (or near) the screen, between two spacer rows that keep the table's full height. */
function VirtualTradeRows({
  uuids,
  onOpenDetail,
}: {
  uuids: string[];
  onOpenDetail: (tradeUuid: string) => void;
}) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  // The page scrolls inside the layout's <main> (app/layout.tsx); outside the layout, the document.
  const [scroller, setScroller] = useState<Element | null>(null);
  // Where the first row starts in the scrolled content: it moves when what is above the table changes height
  // (signal cards come and go), so it is measured again whenever the content resizes.
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const body = bodyRef.current;
    const element = body?.closest('main') ?? document.scrollingElement;
    if (!body || !element) return;
    setScroller(element);
    const measure = () => {
      const offset =
        body.getBoundingClientRect().top - element.getBoundingClientRect().top + element.scrollTop;
      setScrollMargin((known) => (Math.abs(known - offset) < 1 ? known : offset));
    };
    measure();
    const observer = new ResizeObserver(measure);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  // The app is not built with the React Compiler, so nothing memoises across the virtualizer's functions; the
  // rows get the one stable `measureElement`.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: uuids.length,
    getScrollElement: () => scroller,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: OVERSCAN_ROWS,
    scrollMargin,
    getItemKey: (index) => uuids[index] ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const above = first ? first.start - scrollMargin : 0;
  const below = last ? virtualizer.getTotalSize() - (last.end - scrollMargin) : 0;
  const spacer = (height: number, testId: string) =>
    height > 0 ? (
      <tr className="trades-spacer" aria-hidden="true" data-testid={testId} style={{ height }}>
        <td colSpan={12} />
      </tr>
    ) : null;
  return (
    <tbody ref={bodyRef}>
      {spacer(above, 'trade-rows-above')}
      {items.map((item) => {
        const uuid = uuids[item.index];
        const trade = uuid === undefined ? undefined : tradesStore.trade_by_uuid_dict[uuid];
        return trade ? (
          <TradeRow
            key={uuid}
            trade={trade}
            onOpenDetail={onOpenDetail}
            index={item.index}
            measureRef={virtualizer.measureElement}
          />
        ) : null;
      })}
      {spacer(below, 'trade-rows-below')}
    </tbody>
  );
}

/** The open-trades table of /trading (SPEC.md §2), newest first; a spinner until the first read. */
export function OpenTradesTable() {
  // The address changes with every opening and closing of a trade's details: this re-renders, the table
  // (its function stable) does not.
  const { open: openDetail } = useDetailParam(TRADE_DETAIL_PARAM);
  return <TradesTable openDetail={openDetail} />;
}

const TradesTable = memo(function TradesTable({ openDetail }: { openDetail: (tradeUuid: string) => void }) {
  const { t } = useTranslation();
  // Tracks only the keys and creation times: a price update of a trade does not redraw the table.
  const { trade_by_uuid_dict, is_loaded } = useSnapshot(tradesStore);
  const uuids = Object.keys(trade_by_uuid_dict).sort((a, b) =>
    (trade_by_uuid_dict[b]?.trade_create_timestamp ?? '').localeCompare(
      trade_by_uuid_dict[a]?.trade_create_timestamp ?? '',
    ),
  );

  if (uuids.length === 0) {
    if (!is_loaded) return <Loader fill />;
    return (
      <p className="muted open-trades-empty" data-testid="open-trades-empty">
        {t('trades.empty')}
      </p>
    );
  }
  return (
    <div className="trades-table-scroll">
      <table
        className="trades-table is-live"
        data-testid="open-trades-table"
        aria-rowcount={uuids.length >= VIRTUAL_ROWS_FROM ? uuids.length + 1 : undefined}
      >
        <thead>
          <tr>
            <th scope="col">{t('trades.column.coin')}</th>
            <th scope="col" className="is-numeric">
              {t('trades.column.open')}
            </th>
            <th scope="col" className="is-numeric">
              {t('trades.column.now')}
            </th>
            <th scope="col" className="is-numeric">
              {t('trades.column.liquidation')}
            </th>
            <th scope="col" className="is-numeric">
              {t('trades.column.margin')}
            </th>
            <th scope="col" className="is-numeric">
              {t('trades.column.quantity')}
            </th>
            <th scope="col" className="is-numeric">
              {t('trades.column.pnl')}
            </th>
            <th scope="col" className="is-numeric">
              {t('trades.column.roe')}
            </th>
            <th scope="col" className="is-numeric">
              {t('trades.column.net')}
            </th>
            <th scope="col" className="is-numeric">
              {t('trades.column.fees')}
            </th>
            <th scope="col" className="is-numeric">
              {t('trades.column.sl')}
            </th>
            <th scope="col" className="is-numeric trade-actions-cell">
              {t('trades.column.actions')}
            </th>
          </tr>
        </thead>
        {uuids.length >= VIRTUAL_ROWS_FROM ? (
          <VirtualTradeRows uuids={uuids} onOpenDetail={openDetail} />
        ) : (
          <tbody>
            {uuids.map((uuid) => {
              const trade = tradesStore.trade_by_uuid_dict[uuid];
              return trade ? <TradeRow key={uuid} trade={trade} onOpenDetail={openDetail} /> : null;
            })}
          </tbody>
        )}
      </table>
    </div>
  );
});
