import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { TradeTokenMessage } from '../../../../contracts/trade-tokens';
import type { Platform } from '../../../../contracts/platforms';
import { Modal, ModalSize } from '../../../components/ui';
import { PAPER_PLATFORM_NAME } from '../../../config/constants';
import { formatDateTime, translateError, translateExchangeText } from '../../../lib/i18n';
import { addNotification, NotificationType } from '../../../stores/notifications-store';
import { pinCodeStore } from '../../../stores/pin-code-store';
import {
  createPaperAccountCredentials,
  TradeTokenError,
  tradeTokensStore,
} from '../../../stores/trade-tokens-store';

/** SPEC.md §4 messages a token can carry → translation keys. */
const MESSAGE_KEY: Readonly<Record<string, string>> = {
  [TradeTokenMessage.NO_PIN_CODE]: 'trade_token.message.no_pin_code',
  [TradeTokenMessage.WRONG_PIN_CODE]: 'trade_token.message.wrong_pin_code',
  [TradeTokenMessage.CREATED]: 'trade_token.message.created',
};

function errorText(error: unknown, t: (key: string, options?: Record<string, string>) => string): string {
  if (!(error instanceof TradeTokenError)) return translateError(error);
  const reason = error.exchangeText;
  return reason === undefined
    ? t(error.key)
    : t(error.key, { reason: translateExchangeText(reason) ?? reason });
}

/**
 * Trade token panel of SPEC.md §2: the token's dates, reason and 'Revoke Trade Token'; without a token
 * 'Add new Trade Token' (or the PIN hint). On the Paper Futures platform 'Create paper account' provisions a
 * funded paper-exchange account and fills the form.
 */
export interface TradeTokenPanelProps {
  platform: Platform;
  /** Adds the token (the app's addToken: the balance follows); throws for the form. */
  onAdd: (platformUuid: string, apiKey: string, apiSecret: string) => Promise<void>;
  /** Revokes the token (the app's revokeToken); throws when the call fails. */
  onRevoke: (platformUuid: string) => Promise<void>;
}

export function TradeTokenPanel({ platform, onAdd, onRevoke }: TradeTokenPanelProps) {
  const { t } = useTranslation();
  const uuid = platform.platform_uuid;
  const keyId = useId();
  const secretId = useId();
  const { token_by_platform_uuid } = useSnapshot(tradeTokensStore);
  const { pin_code_by_platform_uuid } = useSnapshot(pinCodeStore);
  const token = token_by_platform_uuid[uuid];
  const hasPin = pin_code_by_platform_uuid[uuid] !== undefined;
  const isPaper = platform.platform_name === PAPER_PLATFORM_NAME;
  const [isAdding, setIsAdding] = useState(false);
  const [apiKey, setApiKey] = useState('');
  const [apiSecret, setApiSecret] = useState('');
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string>();
  /** A paper account's secret, shown once (issue 36): nothing can show it again, and a lost one loses its trades. */
  const [revealedSecret, setRevealedSecret] = useState<string>();
  const [isCopied, setIsCopied] = useState(false);
  /** Revoke asks first (issue 39): it forgets the token and the PIN, and trading here stops until both are back. */
  const [isRevokeAsked, setRevokeAsked] = useState(false);

  const closeForm = () => {
    setIsAdding(false);
    setApiKey('');
    setApiSecret('');
    setError(undefined);
    setRevealedSecret(undefined);
    setIsCopied(false);
  };

  const run = async (action: () => Promise<void>) => {
    setIsBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      setError(errorText(caught, t));
    } finally {
      setIsBusy(false);
    }
  };

  const createPaperAccount = () =>
    run(async () => {
      const credentials = await createPaperAccountCredentials();
      setApiKey(credentials.api_key);
      setApiSecret(credentials.api_secret);
      setRevealedSecret(credentials.api_secret);
      setIsCopied(false);
      setIsAdding(true);
      addNotification(NotificationType.SUCCESS, 'trade_token.paper_account_created');
    });

  const hasToken = token !== undefined && Boolean(token.trade_token_uuid || token.message);

  if (hasToken) {
    const message = token.message
      ? MESSAGE_KEY[token.message]
        ? t(MESSAGE_KEY[token.message] ?? '')
        : token.message
      : null;
    return (
      <div className="token-details" data-testid="trade-token-details">
        <div className="token-fields">
          {token.created_at ? (
            <p>{t('trade_token.created', { date: formatDateTime(token.created_at) })}</p>
          ) : null}
          {token.updated_at ? (
            <p>{t('trade_token.last_used', { date: formatDateTime(token.updated_at) })}</p>
          ) : null}
          {message ? <p>{t('trade_token.reason', { message })}</p> : null}
        </div>
        <button
          type="button"
          className="button is-danger is-small"
          disabled={isBusy}
          onClick={() => setRevokeAsked(true)}
          data-testid="trade-token-revoke"
        >
          {t('trade_token.revoke')}
        </button>
        <Modal
          isOpen={isRevokeAsked}
          onClose={() => setRevokeAsked(false)}
          title={t('trade_token.revoke_confirm.title')}
          size={ModalSize.S}
          footer={
            <>
              <button type="button" className="button is-ghost" onClick={() => setRevokeAsked(false)}>
                {t('common.cancel')}
              </button>
              <button
                type="button"
                className="button is-danger"
                onClick={() => {
                  setRevokeAsked(false);
                  void run(() => onRevoke(uuid));
                }}
                data-testid="trade-token-revoke-confirm"
              >
                {t('trade_token.revoke_confirm.confirm')}
              </button>
            </>
          }
        >
          <p data-testid="trade-token-revoke-question">
            {t('trade_token.revoke_confirm.body', { platform: platform.platform_name })}
          </p>
        </Modal>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }

  if (!hasPin) {
    return <p className="muted token-hint">{t('trade_token.set_pin_first')}</p>;
  }

  if (!isAdding) {
    return (
      <div className="token-actions">
        <button type="button" className="button is-primary" onClick={() => setIsAdding(true)}>
          {t('trade_token.add')}
        </button>
        {isPaper ? (
          <button
            type="button"
            className="button"
            disabled={isBusy}
            onClick={() => void createPaperAccount()}
          >
            {t('trade_token.create_paper_account')}
          </button>
        ) : null}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <form
      className="token-form"
      onSubmit={(event) => {
        event.preventDefault();
        void run(async () => {
          await onAdd(uuid, apiKey, apiSecret);
          closeForm();
        });
      }}
    >
      <div className="field">
        <label className="field-label" htmlFor={keyId}>
          {t('trade_token.api_key')}
        </label>
        <input
          id={keyId}
          className="input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
          data-testid="api-key-input"
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={secretId}>
          {t('trade_token.api_secret')}
        </label>
        <input
          id={secretId}
          className="input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={apiSecret}
          onChange={(event) => setApiSecret(event.target.value)}
          data-testid="api-secret-input"
        />
      </div>
      {revealedSecret ? (
        <div className="secret-once" data-testid="secret-once">
          <p className="secret-once-note">{t('trade_token.secret_once')}</p>
          <div className="secret-once-row">
            <code className="secret-once-value" data-testid="secret-once-value">
              {revealedSecret}
            </code>
            <button
              type="button"
              className="button is-ghost"
              onClick={() =>
                void navigator.clipboard.writeText(revealedSecret).then(
                  () => setIsCopied(true),
                  () => setIsCopied(false),
                )
              }
              data-testid="secret-once-copy"
            >
              {isCopied ? t('trade_token.copied') : t('trade_token.copy')}
            </button>
          </div>
        </div>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="form-actions">
        {isPaper ? (
          <button
            type="button"
            className="button is-ghost"
            disabled={isBusy}
            onClick={() => void createPaperAccount()}
          >
            {t('trade_token.create_paper_account')}
          </button>
        ) : null}
        <button type="button" className="button" onClick={closeForm} disabled={isBusy}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button is-primary" disabled={isBusy}>
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
