import { useTranslation } from 'react-i18next';

/** A protected screen whose content arrives with a later issue: its title and a short note. */
export function ComingLaterPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <div className="page">
      <h1 className="page-title">{t(titleKey)}</h1>
      <section className="panel panel-body">
        <p className="muted">{t('coming_later')}</p>
      </section>
    </div>
  );
}
