import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { authStore } from '../../features/auth/auth-store';
import { SignalsPanel } from '../../features/signals/components/signals-panel';
import { AuthDialog, openAuthDialog } from '../layout-store';

/** / (public): what Signaldesk does and the way in; a logged-in trader also sees the live signal cards. */
export function MainPage() {
  const { t } = useTranslation();
  const { user } = useSnapshot(authStore);
  return (
    <div className="page">
      <section className="panel hero">
        <h1 className="hero-title">{t('main.title')}</h1>
        <p className="hero-text">{t('main.lead')}</p>
        <div className="hero-actions">
          {user ? (
            <>
              <Link className="button is-primary" to="/trade_preferences">
                {t('main.setup_action')}
              </Link>
              <Link className="button" to="/trading">
                {t('nav.trading')}
              </Link>
            </>
          ) : (
            <>
              <button
                type="button"
                className="button is-primary"
                onClick={() => openAuthDialog(AuthDialog.SIGNUP)}
              >
                {t('auth.signup')}
              </button>
              <button type="button" className="button" onClick={() => openAuthDialog(AuthDialog.LOGIN)}>
                {t('auth.login')}
              </button>
            </>
          )}
        </div>
      </section>
      {user ? <SignalsPanel /> : null}
      <ol className="steps">
        {(['signup', 'pin', 'token', 'trade'] as const).map((step, index) => (
          <li key={step} className="panel step">
            <span className="step-number" aria-hidden="true">
              {index + 1}
            </span>
            <div>
              <h2 className="step-title">{t(`main.step.${step}.title`)}</h2>
              <p className="muted step-text">{t(`main.step.${step}.text`)}</p>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
