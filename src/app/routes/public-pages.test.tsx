import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { authStore } from '../../stores/auth-store';
import { resetAllStores } from '../reset-all-stores';
import { initTestI18n } from '../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { AboutPage } from './about-page';
import { MainPage } from './main-page';

const USER = {
  user_uuid: '22222222-2222-4222-8222-222222222222',
  user_email: 'trader@example.com',
  user_nickname: 'trader',
  user_trade_token_key: 'a'.repeat(64),
};

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  localStorage.clear();
  resetAllStores();
});
afterEach(cleanup);

const renderPage = (page: React.ReactElement) => render(<MemoryRouter>{page}</MemoryRouter>);

describe('main page (/)', () => {
  test('a visitor sees what Signaldesk does, Sign Up and Log In, the steps and how it works', () => {
    renderPage(<MainPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Trading signals with a track record you can check',
    );
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'How signals are made' })).toHaveAttribute('href', '/about');
    for (const title of [
      'Create an account',
      'Choose a PIN Code',
      'Connect an exchange',
      'Trade the signals',
    ]) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByRole('heading', { name: 'How it works' })).toBeInTheDocument();
    expect(document.body).toHaveTextContent('last 50 resolved signals on the symbol, never a constant');
    expect(screen.queryByTestId('signals-panel')).toBeNull();
  });

  test('a logged-in trader gets the set-up and trading links and the signal cards', () => {
    authStore.user = USER;
    renderPage(<MainPage />);
    expect(screen.getByRole('link', { name: 'Set up trading' })).toHaveAttribute(
      'href',
      '/trade_preferences',
    );
    expect(screen.getByRole('link', { name: 'Trading' })).toHaveAttribute('href', '/trading');
    expect(screen.getByTestId('signals-panel')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign Up' })).toBeNull();
  });
});

describe('about page (/about)', () => {
  test('explains signals, the hit rule, measured accuracy, the public track record, modes and keys', () => {
    renderPage(<AboutPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('About Signaldesk');
    expect(screen.getByTestId('about-signals')).toHaveTextContent('Trend-momentum');
    expect(screen.getByTestId('about-signals')).toHaveTextContent('Logistic-online');
    expect(screen.getByTestId('about-accuracy')).toHaveTextContent('0.3 %');
    expect(screen.getByTestId('about-accuracy')).toHaveTextContent('30 minutes');
    expect(screen.getByTestId('about-accuracy')).toHaveTextContent('last 50 resolved signals');
    expect(screen.getByTestId('about-accuracy')).toHaveTextContent('never a constant');
    expect(screen.getByTestId('about-statistics')).toHaveTextContent('house paper account');
    expect(screen.getByTestId('about-modes')).toHaveTextContent('never leaves this browser');
    expect(screen.getByTestId('about-modes')).toHaveTextContent('forwards each signed request');
    expect(screen.getByTestId('about-keys')).toHaveTextContent('Argon2id');
    expect(screen.getByTestId('about-keys')).toHaveTextContent('AES-256-GCM');
    expect(document.body).toHaveTextContent('Version 1.0.6');
  });

  test('is written in Ukrainian too', async () => {
    await initTestI18n('ua');
    try {
      renderPage(<AboutPage />);
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Про Signaldesk');
      expect(screen.getByTestId('about-accuracy')).toHaveTextContent('0,3 %');
    } finally {
      await initTestI18n('en');
    }
  });
});
