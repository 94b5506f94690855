import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { Loader } from '../components/ui';
import { APP_VERSION, COMMUNITY_CHAT_URL, NEWS_CHANNEL_URL, PNL_DECIMALS } from '../config/constants';
import { authStore } from '../stores/auth-store';
import { tradesStore } from '../features/trades/trades-store';
import { formatFixed } from '../lib/format';
import { compareDecimals } from '../../shared-core/trade-core';

/** The route whose footer shows the trade badges (SPEC.md §1). */
const TRADE_BADGES_PATH = '/trading';

function tone(value: string): string {
  return compareDecimals(value, 0) >= 0 ? 'is-positive' : 'is-negative';
}

/**
 * The total current-PNL and possible-loss badges (SPEC.md §1, §3 current_pnl and possible_loss): 2 decimals
 * and ' $', green at 0 or above, red below. The PNL badge shows SPEC.md's current_pnl (Σ trade_pnl_current,
 * before commissions) under its name, PNL, and beside it the same sum net of the commissions (issue 18); each
 * coloured by its own sign. Both are exact sums of trade-core (trades-store.ts).
 */
function TradeBadges() {
  const { t } = useTranslation();
  const { current_pnl, current_pnl_net, possible_loss } = useSnapshot(tradesStore);
  return (
    <div className="footer-badges">
      <span
        className={`footer-badge numeric ${tone(current_pnl)}`}
        title={t('footer.current_pnl_tooltip')}
        data-testid="footer-current-pnl"
      >
        <span className="footer-badge-label">{t('footer.current_pnl')}</span>
        <span data-testid="footer-current-pnl-gross">{formatFixed(current_pnl, PNL_DECIMALS)} $</span>
        <span className={`footer-badge-net ${tone(current_pnl_net)}`} data-testid="footer-current-pnl-net">
          <span aria-hidden="true">·</span>
          <span className="footer-badge-label">{t('footer.current_pnl_net')}</span>
          {formatFixed(current_pnl_net, PNL_DECIMALS)} $
        </span>
      </span>
      <span
        className={`footer-badge numeric ${tone(possible_loss)}`}
        title={t('footer.possible_loss_tooltip')}
        data-testid="footer-possible-loss"
      >
        <span className="footer-badge-label">{t('footer.possible_loss')}</span>
        {formatFixed(possible_loss, PNL_DECIMALS)} $
      </span>
    </div>
  );
}

/**
 * Footer of SPEC.md §1: the version, the news channel and the community chat, and on /trading the trade
 * badges; a loader while the user loads.
 */
export function Footer() {
  const { t } = useTranslation();
  const { is_init, user } = useSnapshot(authStore);
  const { pathname } = useLocation();
  return (
    <footer className="app-footer">
      {is_init ? <Loader size={14} /> : null}
      <span className="footer-version" data-testid="app-version">
        {t('footer.version', { version: APP_VERSION })}
      </span>
      {user && pathname === TRADE_BADGES_PATH ? <TradeBadges /> : null}
      <nav className="footer-links" aria-label={t('footer.links')}>
        <a href={NEWS_CHANNEL_URL} target="_blank" rel="noreferrer noopener">
          {t('footer.news')}
        </a>
        <a href={COMMUNITY_CHAT_URL} target="_blank" rel="noreferrer noopener">
          {t('footer.community')}
        </a>
      </nav>
    </footer>
  );
}
