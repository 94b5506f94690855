// Tests render with the real English texts (public/locales/en/common.json), loaded synchronously.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../../public/locales/en/common.json';
import ua from '../../../public/locales/ua/common.json';

export async function initTestI18n(language: 'en' | 'ua' = 'en') {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: language,
      fallbackLng: 'en',
      ns: ['common'],
      defaultNS: 'common',
      resources: { en: { common: en }, ua: { common: ua } },
      interpolation: { escapeValue: false },
    });
  } else {
    await i18n.changeLanguage(language);
  }
  return i18n;
}
