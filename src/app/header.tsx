import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { BalanceWidget } from '../features/balances/components/balance-widget';
import { BitcoinWidget } from '../features/bitcoin/components/bitcoin-widget';
import { NotificationToggle } from '../features/notifications/components/notification-history';
import { PriceTicker } from '../features/prices/components/price-ticker';
import { SignalInfoBar } from '../features/signals/components/signal-info-bar';
import { layoutStore, toggleSidebar } from './layout-store';

/**
 * Header (SPEC.md §2): hamburger, brand, the signal-info bar while a signal card is looked at, the price
 * ticker, the balance and bitcoin widgets, the notification toggle.
 */
export function Header() {
  const { t } = useTranslation();
  const { is_sidebar_open } = useSnapshot(layoutStore);
  return (
    <header className="app-header">
      <button
        type="button"
        className="icon-button hamburger"
        aria-label={t('nav.toggle_sidebar')}
        aria-expanded={is_sidebar_open}
        aria-controls="app-sidebar"
        onClick={toggleSidebar}
        data-testid="hamburger"
      >
        <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
          <path
            d="M3 5.5h14M3 10h14M3 14.5h14"
            stroke="currentColor"
            strokeWidth="1.7"
            strokeLinecap="round"
          />
        </svg>
      </button>
      <Link to="/" className="brand">
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <rect x="1" y="1" width="22" height="22" rx="6" fill="var(--accent)" />
          <path
            d="M5 15l4-5 3.5 3L19 7"
            fill="none"
            stroke="var(--accent-fg)"
            strokeWidth="2.2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <span className="brand-name">{t('app_name')}</span>
      </Link>
      <div className="header-signal-info">
        <SignalInfoBar />
      </div>
      <PriceTicker />
      <div className="header-widgets">
        <BalanceWidget />
        <BitcoinWidget />
        <NotificationToggle />
      </div>
    </header>
  );
}
