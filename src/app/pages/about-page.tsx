import { useTranslation } from 'react-i18next';
import { APP_VERSION } from '../../config/constants';

/** /about (public). */
export function AboutPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <h1 className="page-title">{t('nav.about')}</h1>
      <section className="panel panel-body prose">
        <p>{t('about.p1')}</p>
        <p>{t('about.p2')}</p>
        <p>{t('about.p3')}</p>
        <p className="muted">{t('footer.version', { version: APP_VERSION })}</p>
      </section>
    </div>
  );
}
