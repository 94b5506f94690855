import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { loadTradeCoreForTests } from '../testing/load-trade-core';
import { StorageKey } from '../config/storage-keys';
import { authStore } from '../stores/auth-store';
import { notificationsStore } from '../stores/notifications-store';
import { pinCodeStore } from '../stores/pin-code-store';
import { themeStore } from '../features/theme/theme-store';
import { ROUTES } from './app';
import { ErrorPage } from './error-page';
import { layoutStore } from './layout-store';
import { resetAllStores } from './reset-all-stores';
import { initTestI18n } from '../testing/i18n-test';

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  localStorage.clear();
  resetAllStores();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderAt(path: string) {
  const router = createMemoryRouter(ROUTES, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const USER = {
  user_uuid: '22222222-2222-4222-8222-222222222222',
  user_email: 'trader@example.com',
  user_nickname: 'trader',
  user_trade_token_key: 'a'.repeat(64),
};

describe('routes and access', () => {
  test('an unknown path goes to /404', async () => {
    const router = renderAt('/no/such/page');
    expect(await screen.findByText('404')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/404');
  });

  test.each(['/profile', '/trading', '/trade_preferences', '/trade_history', '/dashboard', '/analysis'])(
    'without a user %s redirects to /',
    async (path) => {
      const router = renderAt(path);
      expect(await screen.findAllByRole('button', { name: 'Log In' })).not.toHaveLength(0);
      expect(router.state.location.pathname).toBe('/');
    },
  );

  test('logged out, the sidebar offers Log In and Sign Up and only the public links', async () => {
    renderAt('/about');
    const sidebar = await screen.findByTestId('sidebar');
    expect(sidebar).toHaveTextContent('Log In');
    expect(sidebar).toHaveTextContent('Sign Up');
    expect(sidebar).toHaveTextContent('Main');
    expect(sidebar).not.toHaveTextContent('Trading');
    expect(screen.queryByTestId('logout')).toBeNull();
  });

  test('logged in, the profile block, every link and Logout show', async () => {
    authStore.user = USER;
    renderAt('/profile');
    const block = await screen.findByTestId('profile-block');
    expect(block).toHaveTextContent('t');
    expect(block).toHaveTextContent('trader@example.com');
    for (const label of [
      'Main',
      'About',
      'Trading',
      'Trade Preferences',
      'Trade History',
      'Dashboard',
      'Analysis',
    ]) {
      expect(screen.getByRole('link', { name: label })).toBeInTheDocument();
    }
    expect(screen.getByTestId('profile-email')).toHaveTextContent('trader@example.com');
    expect(screen.getByTestId('logout')).toBeInTheDocument();
  });

  test('the footer shows version 1.0.6 and the news and community links', async () => {
    renderAt('/');
    expect(await screen.findByTestId('app-version')).toHaveTextContent('1.0.6');
    expect(screen.getByRole('link', { name: 'News channel' })).toHaveAttribute('href');
    expect(screen.getByRole('link', { name: 'Community chat' })).toHaveAttribute('href');
  });

  test('a render error shows "Error Page"', async () => {
    function Boom(): never {
      throw new Error('render failed');
    }
    const router = createMemoryRouter([{ path: '/', element: <Boom />, errorElement: <ErrorPage /> }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('Error Page')).toBeInTheDocument();
  });
});

describe('shell controls', () => {
  test('the hamburger toggles the sidebar and the state is remembered', async () => {
    renderAt('/');
    const hamburger = await screen.findByTestId('hamburger');
    const before = layoutStore.is_sidebar_open;
    fireEvent.click(hamburger);
    expect(layoutStore.is_sidebar_open).toBe(!before);
    expect(localStorage.getItem(StorageKey.SIDEBAR_OPEN)).toBe(String(!before));
  });

  test('the theme toggle switches app_dark_theme / app_light_theme and stores it', async () => {
    renderAt('/');
    expect(themeStore.theme).toBe('app_dark_theme');
    fireEvent.click(await screen.findByTestId('theme-toggle'));
    expect(themeStore.theme).toBe('app_light_theme');
    expect(localStorage.getItem(StorageKey.SELECTED_THEME)).toBe('app_light_theme');
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('app_light_theme'));
  });

  test('Log In opens the login dialog', async () => {
    renderAt('/');
    const sidebar = await screen.findByTestId('sidebar');
    fireEvent.click(Array.from(sidebar.querySelectorAll('button')).find((b) => b.textContent === 'Log In')!);
    expect(await screen.findByRole('dialog', { name: 'Log In' })).toBeInTheDocument();
  });
});

describe('logout', () => {
  test('clears storage and every store and returns to /', async () => {
    localStorage.setItem(StorageKey.ACCESS_TOKEN, 'bearer x');
    authStore.user = USER;
    authStore.is_init = false;
    pinCodeStore.pin_code_by_platform_uuid['p'] = '12345';
    const router = renderAt('/profile');
    await screen.findByTestId('profile-email');
    // The server-side logout call fails here (no server); logout goes on regardless.
    await act(async () => {
      fireEvent.click(screen.getByTestId('logout'));
      await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'));
    });
    expect(localStorage.getItem(StorageKey.ACCESS_TOKEN)).toBeNull();
    expect(authStore.user).toBeUndefined();
    expect(pinCodeStore.pin_code_by_platform_uuid).toEqual({});
    expect(notificationsStore.notification_list).toEqual([]);
  });
});
