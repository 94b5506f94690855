import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** /404: where unknown paths land (SPEC.md §2). */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="page error-page">
      <h1 className="not-found-code">404</h1>
      <p>{t('not_found.text')}</p>
      <Link className="button" to="/">
        {t('nav.main')}
      </Link>
    </div>
  );
}
