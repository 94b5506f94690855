import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { authStore } from '../../stores/auth-store';
import { SignalsPanel } from '../../features/signals/components/signals-panel';
import { openTradeFromSignal } from '../signal-trading';
import { AuthDialog, openAuthDialog } from '../layout-store';

const STEPS = ['signup', 'pin', 'token', 'trade'] as const;
const HOW_IT_WORKS = ['signals', 'accuracy', 'record', 'keys'] as const;

/**
 * / (public): what Signaldesk does and the way in (texts in the insights namespace); a logged-in trader also
 * sees the live signal cards.
 */
export function MainPage() {
  const { t } = useTranslation(['insights', 'common']);
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
                {t('common:nav.trading')}
              </Link>
            </>
          ) : (
            <>
              <button
                type="button"
                className="button is-primary"
                onClick={() => openAuthDialog(AuthDialog.SIGNUP)}
              >
                {t('common:auth.signup')}
              </button>
              <button type="button" className="button" onClick={() => openAuthDialog(AuthDialog.LOGIN)}>
                {t('common:auth.login')}
              </button>
            </>
          )}
          <Link className="button is-ghost" to="/about">
            {t('main.learn_more')}
          </Link>
        </div>
      </section>
      {user ? <SignalsPanel onTrade={openTradeFromSignal} /> : null}
      <ol className="steps">
        {STEPS.map((step, index) => (
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
      <section aria-labelledby="how-it-works-title">
        <h2 id="how-it-works-title" className="section-heading">
          {t('main.how.title')}
        </h2>
        <ul className="steps">
          {HOW_IT_WORKS.map((item) => (
            <li key={item} className="panel step">
              <div>
                <h3 className="step-title">{t(`main.how.${item}.title`)}</h3>
                <p className="muted step-text">{t(`main.how.${item}.text`)}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
