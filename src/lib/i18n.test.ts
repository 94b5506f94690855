import { beforeAll, describe, expect, test } from 'vitest';
import { initTestI18n } from '../app/testing/i18n-test';
import { ApiError, ApiErrorKind } from './api-client';
import { translateError } from './i18n';

beforeAll(async () => {
  await initTestI18n('ua');
});

describe('translateError', () => {
  test('known server details are translated, field-prefixed ones by their message', () => {
    expect(translateError(new ApiError(ApiErrorKind.HTTP_ERROR, 'Incorrect email or password', 400))).toBe(
      'Неправильна електронна пошта або пароль',
    );
    expect(translateError(new ApiError(ApiErrorKind.HTTP_ERROR, 'user_email: Incorrect email', 400))).toBe(
      'Некоректна електронна адреса',
    );
  });

  test('unknown details are shown as sent; a bare status gets "HTTP error {status}"', () => {
    expect(translateError(new ApiError(ApiErrorKind.HTTP_ERROR, 'Something new', 418))).toBe('Something new');
    expect(translateError(new ApiError(ApiErrorKind.HTTP_ERROR, 'unknown error', 502))).toBe(
      'Невідома помилка',
    );
  });

  test('transport classes have their own texts', () => {
    expect(translateError(new ApiError(ApiErrorKind.TIMEOUT_ERROR, 'Timeout'))).toBe(
      'Час очікування вичерпано',
    );
    expect(translateError(new ApiError(ApiErrorKind.FETCH_ERROR, 'fetch failed'))).toBe(
      'Помилка мережі: сервер недоступний',
    );
  });
});
