import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../../config/constants';
import { changeLanguage } from '../../../lib/i18n';

/** en / ua switch (SPEC.md §2, sidebar bottom). */
export function LanguageToggle() {
  const { t, i18n } = useTranslation();
  const current = (i18n.resolvedLanguage ?? i18n.language) as Language;
  return (
    <div className="segmented" role="group" aria-label={t('language.label')}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          className={language === current ? 'segmented-item is-active' : 'segmented-item'}
          aria-pressed={language === current}
          lang={language === 'ua' ? 'uk' : 'en'}
          onClick={() => void changeLanguage(language)}
          data-testid={`language-${language}`}
        >
          {t(`language.${language}`)}
        </button>
      ))}
    </div>
  );
}
