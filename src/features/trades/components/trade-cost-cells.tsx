// The cockpit's cells of an open trade (issue 18): the liquidation price with the distance to it, the
// commissions (the opening fill's as the exchange charged it, the closing one estimated at the current price)
// and the PNL and ROE net of both. Exact decimals from trade-core; '—' where the exchange did not tell.
import { useTranslation } from 'react-i18next';
import type { Snapshot } from 'valtio';
import type { Trade } from '../../../../contracts';
import { signTone } from '../../../components/ui';
import { PNL_DECIMALS } from '../../../config/constants';
import { formatFixed } from '../../../lib/format';
import { liquidationDistancePercent } from '../trade-costs';

/** Places of a commission on screen (the exchange charges to 8; a cent is too coarse for a 0.02 % fee). */
export const FEE_DECIMALS = 4;

const NONE = '—';

/** 'Liq. $': the isolated liquidation price, and below it how far the price is from it in percent. */
export function LiquidationCell({ trade }: { trade: Snapshot<Trade> }) {
  const { t } = useTranslation();
  const liquidation = trade.trade_liquidation_price;
  const distance = liquidationDistancePercent(trade);
  const known = liquidation !== null && liquidation !== undefined && distance !== undefined;
  return (
    <td
      className="is-numeric"
      data-testid="trade-liq"
      title={t('trades.cost.liquidation_tooltip')}
      data-col="liquidation"
      data-label={t('trades.column.liquidation')}
    >
      <span data-testid="trade-liq-price">
        {known ? formatFixed(liquidation, trade.symbol.symbol_price_precision) : NONE}
      </span>
      {known ? (
        <span className="trade-sub muted" data-testid="trade-liq-distance">
          {t('trades.cost.distance', { percent: distance })}
        </span>
      ) : null}
    </td>
  );
}

/** 'Fees $': the opening commission, and below it the estimated closing one. */
export function FeeCell({ trade }: { trade: Snapshot<Trade> }) {
  const { t } = useTranslation();
  const open = trade.trade_open_commission;
  const close = trade.trade_close_commission;
  return (
    <td
      className="is-numeric"
      data-testid="trade-fees"
      data-col="fees"
      data-label={t('trades.column.fees')}
      title={t('trades.cost.fees_tooltip', {
        open: open ?? NONE,
        close: close ?? NONE,
      })}
    >
      <span data-testid="trade-fee-open">{open ? formatFixed(open, FEE_DECIMALS) : NONE}</span>
      {close ? (
        <span className="trade-sub muted" data-testid="trade-fee-close">
          {t('trades.cost.close_fee', { fee: formatFixed(close, FEE_DECIMALS) })}
        </span>
      ) : null}
    </td>
  );
}

/** 'Net $': the PNL net of both commissions, and below it the ROE net of them. */
export function NetPnlCell({ trade }: { trade: Snapshot<Trade> }) {
  const { t } = useTranslation();
  const pnl = trade.trade_pnl_net;
  const roe = trade.trade_roe_net;
  if (pnl === null || pnl === undefined) {
    return (
      <td
        className="is-numeric"
        data-testid="trade-net"
        title={t('trades.cost.net_unknown')}
        data-col="net"
        data-label={t('trades.column.net')}
      >
        <span data-testid="trade-pnl-net">{NONE}</span>
      </td>
    );
  }
  return (
    <td
      className={`is-numeric ${signTone(pnl)}`}
      data-testid="trade-net"
      title={t('trades.cost.net_tooltip')}
      data-col="net"
      data-label={t('trades.column.net')}
    >
      <span data-testid="trade-pnl-net">{formatFixed(pnl, PNL_DECIMALS)}</span>
      {roe === null || roe === undefined ? null : (
        <span className="trade-sub" data-testid="trade-roe-net">
          {t('trades.cost.roe', { percent: formatFixed(roe, PNL_DECIMALS) })}
        </span>
      )}
    </td>
  );
}
