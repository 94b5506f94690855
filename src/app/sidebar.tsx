import { useState } from 'react';
import { NavLink, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { authStore } from '../stores/auth-store';
import { LanguageToggle } from '../features/theme/components/language-toggle';
import { ThemeToggle } from '../features/theme/components/theme-toggle';
import { AuthDialog, isOverlayViewport, layoutStore, openAuthDialog, setSidebarOpen } from './layout-store';
import { logoutAndReset } from './logout';
import { LogoutDialog, openClientTradeUuids } from './logout-dialog';
import { NAV_ITEMS } from './nav-items';

/**
 * Sidebar of SPEC.md §2: logged in, the profile block and the links; logged out, Log In and Sign Up; at the
 * bottom the theme and language toggles and (with a user) Logout.
 */
export function Sidebar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user, is_init } = useSnapshot(authStore);
  const { is_sidebar_open } = useSnapshot(layoutStore);

  const [isLogoutAsked, setIsLogoutAsked] = useState(false);

  const closeOnOverlay = () => {
    if (isOverlayViewport()) setSidebarOpen(false);
  };
  const logout = () => {
    closeOnOverlay();
    void logoutAndReset().then(() => navigate('/'));
  };

  return (
    <>
      {is_sidebar_open ? (
        <div className="sidebar-backdrop" aria-hidden="true" onClick={() => setSidebarOpen(false)} />
      ) : null}
      <aside
        id="app-sidebar"
        className={is_sidebar_open ? 'sidebar is-open' : 'sidebar'}
        aria-label={t('nav.label')}
        data-testid="sidebar"
        hidden={!is_sidebar_open}
      >
        <nav className="sidebar-nav">
          {user ? (
            <NavLink
              to="/profile"
              className={({ isActive }) => (isActive ? 'profile-block is-active' : 'profile-block')}
              onClick={closeOnOverlay}
              data-testid="profile-block"
            >
              <span className="profile-avatar" aria-hidden="true">
                {user.user_nickname.charAt(0)}
              </span>
              <span className="profile-text">
                <span className="profile-nickname">{user.user_nickname}</span>
                <span className="profile-email">{user.user_email}</span>
              </span>
            </NavLink>
          ) : null}
          <ul className="nav-list">
            {NAV_ITEMS.filter((item) => user || !item.isProtected).map((item) => (
              <li key={item.path}>
                <NavLink
                  to={item.path}
                  end={item.path === '/'}
                  className={({ isActive }) => (isActive ? 'nav-link is-active' : 'nav-link')}
                  onClick={closeOnOverlay}
                >
                  <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
                    <path
                      d={item.icon}
                      fill="none"
                      stroke="currentColor"
                      strokeWidth="1.6"
                      strokeLinecap="round"
                      strokeLinejoin="round"
                    />
                  </svg>
                  {t(item.labelKey)}
                </NavLink>
              </li>
            ))}
          </ul>
          {!user && !is_init ? (
            <div className="sidebar-auth">
              <button
                type="button"
                className="button is-primary"
                onClick={() => {
                  closeOnOverlay();
                  openAuthDialog(AuthDialog.LOGIN);
                }}
              >
                {t('auth.login')}
              </button>
              <button
                type="button"
                className="button"
                onClick={() => {
                  closeOnOverlay();
                  openAuthDialog(AuthDialog.SIGNUP);
                }}
              >
                {t('auth.signup')}
              </button>
            </div>
          ) : null}
        </nav>
        <div className="sidebar-bottom">
          <div className="sidebar-toggles">
            <ThemeToggle />
            <LanguageToggle />
          </div>
          {user ? (
            <button
              type="button"
              className="button is-ghost sidebar-logout"
              onClick={() => {
                // Open client-mode trades: say what logout does to them first (issue 36).
                if (openClientTradeUuids().length > 0) {
                  setIsLogoutAsked(true);
                  return;
                }
                logout();
              }}
              data-testid="logout"
            >
              <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
                <path
                  d="M8 3.5H4.5v13H8M12 6.5L15.5 10 12 13.5M15.5 10H7.5"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.6"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
              {t('auth.logout')}
            </button>
          ) : null}
        </div>
      </aside>
      <LogoutDialog
        isOpen={isLogoutAsked}
        onCancel={() => setIsLogoutAsked(false)}
        onLogout={() => {
          setIsLogoutAsked(false);
          logout();
        }}
      />
    </>
  );
}
