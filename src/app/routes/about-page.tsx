import { useTranslation } from 'react-i18next';
import { APP_VERSION } from '../../config/constants';

/** The sections of /about and their paragraphs (texts in the insights namespace, about.*). */
const SECTIONS = [
  { id: 'what', paragraphs: ['p1', 'p2'] },
  { id: 'signals', paragraphs: ['p1', 'p2'] },
  { id: 'accuracy', paragraphs: ['p1', 'p2'] },
  { id: 'statistics', paragraphs: ['p1', 'p2'] },
  { id: 'modes', paragraphs: ['p1'] },
  { id: 'keys', paragraphs: ['p1', 'p2'] },
  { id: 'paper', paragraphs: ['p1'] },
] as const;

/**
 * /about (public): what Signaldesk does, how signals and their accuracy are made (docs/server.md "Market and
 * signals"), where the public statistics come from, and how client and server mode protect the keys.
 */
export function AboutPage() {
  const { t } = useTranslation(['insights', 'common']);
  return (
    <div className="page">
      <h1 className="page-title">{t('about.title')}</h1>
      {SECTIONS.map((section) => (
        <section
          key={section.id}
          className="panel panel-body prose"
          aria-labelledby={`about-${section.id}`}
          data-testid={`about-${section.id}`}
        >
          <h2 id={`about-${section.id}`} className="panel-title" style={{ margin: '0 0 8px' }}>
            {t(`about.${section.id}.title`)}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{t(`about.${section.id}.${paragraph}`)}</p>
          ))}
        </section>
      ))}
      <p className="muted">{t('common:footer.version', { version: APP_VERSION })}</p>
    </div>
  );
}
