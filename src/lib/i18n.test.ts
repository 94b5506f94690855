import { beforeAll, describe, expect, test } from 'vitest';
import { initTestI18n } from '../testing/i18n-test';
import { OpenFailureText } from '../../contracts';
import { ApiError, ApiErrorKind } from './api-client';
import i18n from 'i18next';
import { formatDate, translateError, translateExchangeText } from './i18n';

beforeAll(async () => {
  await initTestI18n('ua');
});

describe('translateExchangeText', () => {
  test("-4164 is translated with the symbol's own minimum the exchange named", () => {
    expect(translateExchangeText('Order notional must be no smaller than 100')).toBe(
      'Номінал ордера має бути не меншим за 100',
    );
    expect(
      translateError(
        new ApiError(
          ApiErrorKind.HTTP_ERROR,
          'placeMarketOrder: Order notional must be no smaller than 5.5',
          400,
        ),
      ),
    ).toBe('Номінал ордера має бути не меншим за 5.5');
  });
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

  test("a failed server-mode open: the server's sentence and the exchange's failure in it, both translated", () => {
    const unconfirmed = OpenFailureText.orderUnconfirmed('placeMarketOrder: Timeout');
    expect(translateError(new ApiError(ApiErrorKind.HTTP_ERROR, unconfirmed, 502))).toBe(
      'Біржа не підтвердила ринковий ордер (Час очікування вичерпано); позиція може бути відкрита. ' +
        '«Відновити» в налаштуваннях торгівлі узгодить її з біржею.',
    );
    // An exchange text the catalogue does not know stays as the exchange sent it.
    const refused = OpenFailureText.stopRefused('placeStopOrder: Order would immediately trigger.');
    expect(translateError(new ApiError(ApiErrorKind.HTTP_ERROR, refused, 400))).toBe(
      'Біржа відхилила ордер стоп-лосу (Order would immediately trigger.), тож позицію одразу закрито знову: ' +
        'жодну угоду не відкрито',
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

describe('formatDate', () => {
  test('follows a change of language (its formatters are kept per language)', async () => {
    const at = Date.UTC(2026, 0, 15, 12, 0);
    const ua = formatDate('weekday_day', at);
    await i18n.changeLanguage('en');
    try {
      const en = formatDate('weekday_day', at);
      expect(en).toMatch(/Jan/);
      expect(ua).not.toBe(en);
      expect(ua).toMatch(/січ/);
    } finally {
      await i18n.changeLanguage('ua');
    }
  });
});
