import { useLayoutEffect } from 'react';
import { CloseConfirmDialog } from '../features/trades/components/close-confirm-dialog';
import { PinRequestDialog } from './pin-request-dialog';
import { Outlet, useLocation } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { Loader } from '../components/ui';
import { authStore } from '../stores/auth-store';
import { LoginModal } from '../features/auth/components/login-modal';
import { SignupModal } from '../features/auth/components/signup-modal';
import { NotificationHistory } from '../features/notifications/components/notification-history';
import { NotificationList } from '../features/notifications/components/notification-list';
import { SignalTrendModal } from '../features/signals/components/signal-trend-modal';
import { SignalToasts } from '../features/signals/components/signal-toasts';
import { useSignalTimers } from '../features/signals/use-signal-timers';
import { openTradeFromSignal } from './signal-trading';
import { useApplyTheme } from '../features/theme/components/theme-toggle';
import { Footer } from './footer';
import { Header } from './header';
import { useLiveEvents } from './live-events';
import { AuthDialog, closeAuthDialog, layoutStore } from './layout-store';
import { Sidebar } from './sidebar';
import { usePageTitle } from './page-title';
import { useSession } from './use-session';
import { usePush } from '../features/push/use-push';
import './layout.css';
import './layout-pages.css';

/**
 * A new page starts at its top: the pages scroll inside <main>, which stays mounted across routes, so without
 * this a page opened from the sidebar showed at the previous page's scroll position. Only the path counts: a
 * modal's query parameter (?trade_detail_uuid…) keeps the page where it is. A component of its own, so a
 * change of the address re-renders it alone, not the shell (a detail modal opens on every row click).
 */
function NewPageAtTop() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    const main = document.getElementById(MAIN_ID);
    if (main) main.scrollTop = 0;
  }, [pathname]);
  return null;
}

const MAIN_ID = 'main';

/**
 * The shell: sidebar, header, the page, footer, notifications and the auth dialogs; for a logged-in trader
 * also the websocket, the signal cards' clock, the live signals' toasts on every page without the cards, and the
 * 'Signal Trend Data' modal (?signal_detail_uuid).
 */
export function Layout() {
  useApplyTheme();
  useSession();
  useLiveEvents();
  usePageTitle();
  const { is_init, user } = useSnapshot(authStore);
  useSignalTimers(user !== undefined, openTradeFromSignal);
  // Issue 41: the service worker, its notification clicks, this device's subscription kept current.
  usePush(user?.user_uuid);
  const { auth_dialog, is_sidebar_open } = useSnapshot(layoutStore);
  return (
    <div className={is_sidebar_open ? 'app-shell has-sidebar' : 'app-shell'}>
      <Sidebar />
      <div className="app-column">
        <Header />
        {/* The page scrolls inside <main>: focusable, so a keyboard can scroll a page without links. */}
        <main className="app-main" id={MAIN_ID} tabIndex={0}>
          <NewPageAtTop />
          {is_init ? <Loader fill /> : <Outlet />}
        </main>
        <Footer />
      </div>
      <NotificationHistory />
      {/* A live signal shows as a toast on a page without the signal cards (issue 39). */}
      <NotificationList>{user ? <SignalToasts /> : null}</NotificationList>
      <PinRequestDialog />
      <CloseConfirmDialog />
      <LoginModal isOpen={auth_dialog === AuthDialog.LOGIN} onClose={closeAuthDialog} />
      <SignupModal isOpen={auth_dialog === AuthDialog.SIGNUP} onClose={closeAuthDialog} />
      {user ? <SignalTrendModal /> : null}
    </div>
  );
}
