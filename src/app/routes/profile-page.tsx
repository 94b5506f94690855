import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { authStore } from '../../stores/auth-store';
import '../../features/auth/components/auth.css';

/** /profile: nickname and email; on error a red 'Error' with the error text (SPEC.md §2 "Profile card"). */
export function ProfilePage() {
  const { t } = useTranslation();
  const { user, user_error } = useSnapshot(authStore);
  return (
    <div className="page">
      <h1 className="page-title">{t('nav.profile')}</h1>
      <section className="panel profile-card" aria-label={t('nav.profile')}>
        <div className="profile-avatar-large" aria-hidden="true">
          {user?.user_nickname.charAt(0) ?? '?'}
        </div>
        <dl className="profile-fields">
          <dt>{t('auth.nickname')}</dt>
          <dd data-testid="profile-nickname">{user?.user_nickname ?? '—'}</dd>
          <dt>{t('auth.email')}</dt>
          <dd data-testid="profile-email">{user?.user_email ?? '—'}</dd>
        </dl>
        {user_error ? (
          <p className="profile-error" role="alert">
            <strong>{t('common.error')}</strong> {user_error}
          </p>
        ) : null}
      </section>
    </div>
  );
}
