// Tests render with the real texts of every namespace (public/locales/{en,ua}/{ns}.json), loaded synchronously.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enCommon from '../../public/locales/en/common.json';
import enInsights from '../../public/locales/en/insights.json';
import uaCommon from '../../public/locales/ua/common.json';
import uaInsights from '../../public/locales/ua/insights.json';
import { I18N_NAMESPACES } from '../config/constants';

export const TEST_RESOURCES = {
  en: { common: enCommon, insights: enInsights },
  ua: { common: uaCommon, insights: uaInsights },
} satisfies Record<'en' | 'ua', Record<(typeof I18N_NAMESPACES)[number], object>>;

export async function initTestI18n(language: 'en' | 'ua' = 'en') {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: language,
      fallbackLng: 'en',
      ns: [...I18N_NAMESPACES],
      defaultNS: 'common',
      resources: TEST_RESOURCES,
      interpolation: { escapeValue: false },
    });
  } else {
    await i18n.changeLanguage(language);
  }
  return i18n;
}
