import { useTranslation } from 'react-i18next';

/** The generic error page shown on a render error (SPEC.md §2: reads 'Error Page'). */
export function ErrorPage() {
  const { t } = useTranslation();
  return (
    <div className="error-page" role="alert">
      <h1>{t('error_page')}</h1>
      <p className="muted">{t('error_page_hint')}</p>
      <a className="button" href="/">
        {t('nav.main')}
      </a>
    </div>
  );
}
