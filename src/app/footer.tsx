import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Loader } from '../components/ui';
import { APP_VERSION, COMMUNITY_CHAT_URL, NEWS_CHANNEL_URL } from '../config/constants';
import { authStore } from '../features/auth/auth-store';

/** Footer of SPEC.md §1: the version, the news channel and the community chat; a loader while the user loads. */
export function Footer() {
  const { t } = useTranslation();
  const { is_init } = useSnapshot(authStore);
  return (
    <footer className="app-footer">
      {is_init ? <Loader size={14} /> : null}
      <span className="footer-version" data-testid="app-version">
        {t('footer.version', { version: APP_VERSION })}
      </span>
      <nav className="footer-links" aria-label={t('footer.links')}>
        <a href={NEWS_CHANNEL_URL} target="_blank" rel="noreferrer noopener">
          {t('footer.news')}
        </a>
        <a href={COMMUNITY_CHAT_URL} target="_blank" rel="noreferrer noopener">
          {t('footer.community')}
        </a>
      </nav>
    </footer>
  );
}
