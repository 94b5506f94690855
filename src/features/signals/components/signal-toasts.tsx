// The every-page signal toast (issue 39 item 5): a live signal that comes while the trader is on another page
// (Trade Preferences, History, Dashboard …) is not lost. The layout puts these toasts in the notification area
// (features/notifications NotificationList), so they stack with the notifications and go where that area
// goes. They read the same live cards and the same auto-open rule as the signal cards (use-live-signals.ts,
// trade-from-signal.ts): one mechanism, no second countdown. Where the signals panel is on the page (Main,
// Trading) the cards themselves show, so the toasts stand aside.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SignalDirection } from '../../../../contracts';
import { DirectionIcon } from '../../../components/ui';
import { preferencesStore } from '../../../stores/preferences-store';
import { tradeTokensStore } from '../../../stores/trade-tokens-store';
import { signalsStore } from '../signals-store';
import { secondsToAutoOpen } from '../trade-from-signal';
import { useIsSignalsPanelShown, useLiveSignals, type LiveSignal } from '../use-live-signals';
import './signals.css';

/** At most this many signal toasts at once, newest first; the rest are counted in a line. */
export const SIGNAL_TOAST_MAX_COUNT = 3;

function SignalToast({ card, onDismiss }: { card: LiveSignal; onDismiss: () => void }) {
  const { t } = useTranslation();
  const { signal_by_uuid } = useSnapshot(signalsStore);
  const { trade_preferences } = useSnapshot(preferencesStore);
  const { token_by_platform_uuid } = useSnapshot(tradeTokensStore);
  const signal = signal_by_uuid[card.signalUuid];
  if (!signal) return null;
  const isBuy = signal.signal_direction_created === SignalDirection.BUY;
  const direction = t(`signal.direction.${signal.signal_direction_created}`);
  const autoOpenInS = secondsToAutoOpen(signal, card.elapsedS, {
    autoOpenDelayS: trade_preferences?.trade_auto_open_delay ?? 0,
    minimalAccuracyPercent: trade_preferences?.minimal_accuracy,
    tokenLevel: token_by_platform_uuid[signal.platform_uuid]?.level,
  });
  return (
    <div
      className={`signal-toast ${isBuy ? 'is-buy' : 'is-sell'}`}
      role="group"
      aria-label={t('signal_toast.label', { direction, symbol: signal.symbol.symbol_name })}
      data-testid="signal-toast"
      data-signal-uuid={card.signalUuid}
    >
      <div className="signal-toast-head">
        <span className="signal-toast-title">{t('signal_toast.title')}</span>
        <span
          className="signal-toast-left numeric"
          title={t('signal_toast.seconds_left_title')}
          data-testid="signal-toast-seconds-left"
        >
          {t('signal_toast.seconds_left', { n: card.secondsLeft })}
        </span>
        <button
          type="button"
          className="icon-button signal-toast-dismiss"
          aria-label={t('signal_toast.dismiss')}
          title={t('signal_toast.dismiss')}
          onClick={onDismiss}
        >
          <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
            <path d="M3 3l10 10M13 3L3 13" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <div className="signal-toast-body">
        <span className="signal-toast-symbol" title={signal.symbol.symbol_pair}>
          {signal.symbol.symbol_name}
        </span>
        <span
          className={`signal-direction ${isBuy ? 'is-buy' : 'is-sell'}`}
          data-testid="signal-toast-direction"
        >
          <DirectionIcon direction={isBuy ? 1 : -1} />
          {direction}
        </span>
        <span className="muted signal-toast-platform">
          {t(`platform_name.${signal.platform.platform_name}`, {
            defaultValue: signal.platform.platform_name,
          })}
        </span>
      </div>
      <div className="signal-toast-foot">
        {autoOpenInS !== undefined ? (
          <span className="signal-toast-auto-open" data-testid="signal-toast-auto-open">
            {t('signal.auto_open_in', { n: autoOpenInS })}
          </span>
        ) : null}
        <Link className="button is-small signal-toast-show" to="/" data-testid="signal-toast-show">
          {t('signal_toast.show')}
        </Link>
      </div>
    </div>
  );
}

/**
 * The live signals as toasts, for a logged-in trader on a page without the signals panel. A dismissed toast
 * stays hidden; its card stays on Main until its countdown ends.
 */
export function SignalToasts() {
  const { t } = useTranslation();
  const cards = useLiveSignals();
  const isPanelShown = useIsSignalsPanelShown();
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  if (isPanelShown) return null;
  const shown = cards.filter((card) => !dismissed.has(card.signalUuid));
  const more = shown.length - SIGNAL_TOAST_MAX_COUNT;
  const dismiss = (signalUuid: string) =>
    // Only the uuids of live cards are kept, so the set stays as small as the list.
    setDismissed(
      (current) =>
        new Set([...current, signalUuid].filter((uuid) => cards.some((card) => card.signalUuid === uuid))),
    );
  return (
    <>
      {shown.slice(0, SIGNAL_TOAST_MAX_COUNT).map((card) => (
        <SignalToast key={card.signalUuid} card={card} onDismiss={() => dismiss(card.signalUuid)} />
      ))}
      {more > 0 ? (
        <Link className="signal-toast-more" to="/" data-testid="signal-toast-more">
          {t('signal_toast.more', { count: more })}
        </Link>
      ) : null}
    </>
  );
}
