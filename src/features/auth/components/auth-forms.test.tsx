import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { loadTradeCoreForTests } from '../../../testing/load-trade-core';
import { initTestI18n } from '../../../testing/i18n-test';
import { ApiError, ApiErrorKind } from '../../../lib/api-client';
import { LoginModal } from './login-modal';
import { SignupModal } from './signup-modal';

const loginUser = vi.fn();
const signupUser = vi.fn();
vi.mock('../../../stores/auth-store', () => ({
  loginUser: (...args: unknown[]) => loginUser(...args),
  signupUser: (...args: unknown[]) => signupUser(...args),
}));

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  loginUser.mockReset();
  signupUser.mockReset();
});
afterEach(cleanup);

const GOOD_PASSWORD = 'Abcdef1!';

describe('Login dialog', () => {
  test('submit stays disabled while the form is invalid and shows the SPEC messages', async () => {
    const user = userEvent.setup();
    render(<LoginModal isOpen onClose={() => undefined} />);
    const submit = screen.getByRole('button', { name: 'Log In' });
    expect(submit).toBeDisabled();

    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(await screen.findByText('Incorrect email')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Email'));
    expect(await screen.findByText('Field is required')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Password'), 'Ab1!');
    expect(await screen.findByText('Minimum 6 characters')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'abcdefgh');
    expect(
      await screen.findByText(
        'Should contain one uppercase letter, one lowercase letter, one digit, and one special character',
      ),
    ).toBeInTheDocument();
    expect(submit).toBeDisabled();
  });

  test('a valid form submits; a server error shows in red in the footer', async () => {
    const user = userEvent.setup();
    loginUser.mockRejectedValueOnce(
      new ApiError(ApiErrorKind.HTTP_ERROR, 'Incorrect email or password', 401),
    );
    const onClose = vi.fn();
    render(<LoginModal isOpen onClose={onClose} />);
    await user.type(screen.getByLabelText('Email'), 'trader@example.com');
    await user.type(screen.getByLabelText('Password'), GOOD_PASSWORD);
    const submit = screen.getByRole('button', { name: 'Log In' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(loginUser).toHaveBeenCalledWith({
      user_email: 'trader@example.com',
      user_password: GOOD_PASSWORD,
    });
    expect(await screen.findByTestId('auth-server-error')).toHaveTextContent('Incorrect email or password');
    expect(onClose).not.toHaveBeenCalled();
  });

  test('the dialog closes on success', async () => {
    const user = userEvent.setup();
    loginUser.mockResolvedValueOnce(undefined);
    const onClose = vi.fn();
    render(<LoginModal isOpen onClose={onClose} />);
    await user.type(screen.getByLabelText('Email'), 'trader@example.com');
    await user.type(screen.getByLabelText('Password'), GOOD_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  test('a time-out reads "Timeout"', async () => {
    const user = userEvent.setup();
    loginUser.mockRejectedValueOnce(new ApiError(ApiErrorKind.TIMEOUT_ERROR, 'Timeout'));
    render(<LoginModal isOpen onClose={() => undefined} />);
    await user.type(screen.getByLabelText('Email'), 'trader@example.com');
    await user.type(screen.getByLabelText('Password'), GOOD_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByTestId('auth-server-error')).toHaveTextContent('Timeout');
  });
});

describe('Signup dialog', () => {
  test('nickname minimum and matching passwords', async () => {
    const user = userEvent.setup();
    render(<SignupModal isOpen onClose={() => undefined} />);
    const submit = screen.getByRole('button', { name: 'Sign Up' });
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Nickname'), 'abc');
    expect(await screen.findByText('Minimum 4 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Nickname'), 'd');
    await user.type(screen.getByLabelText('Password'), GOOD_PASSWORD);
    await user.type(screen.getByLabelText('Repeat password'), 'Abcdef1@');
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await user.clear(screen.getByLabelText('Repeat password'));
    await user.type(screen.getByLabelText('Repeat password'), GOOD_PASSWORD);
    await waitFor(() => expect(submit).toBeEnabled());
    signupUser.mockResolvedValueOnce(undefined);
    await user.click(submit);
    expect(signupUser).toHaveBeenCalledWith({
      user_email: 'new@example.com',
      user_nickname: 'abcd',
      user_password: GOOD_PASSWORD,
      user_password_repeat: GOOD_PASSWORD,
    });
  });

  test('a nickname with invisible or control characters is refused in the form, translated', async () => {
    const user = userEvent.setup();
    render(<SignupModal isOpen onClose={() => undefined} />);
    await user.type(screen.getByLabelText('Nickname'), 'ada\u202Egnp.exe');
    expect(
      await screen.findByText('Must not contain control or invisible formatting characters'),
    ).toBeInTheDocument();
    await initTestI18n('ua');
    try {
      expect(
        await screen.findByText('Не може містити керівних або невидимих символів форматування'),
      ).toBeInTheDocument();
    } finally {
      await initTestI18n('en');
    }
  });

  test('messages are translated in Ukrainian', async () => {
    await initTestI18n('ua');
    try {
      const user = userEvent.setup();
      render(<SignupModal isOpen onClose={() => undefined} />);
      await user.type(screen.getByLabelText('Електронна пошта'), 'x');
      expect(await screen.findByText('Некоректна електронна адреса')).toBeInTheDocument();
    } finally {
      await initTestI18n('en');
    }
  });
});
