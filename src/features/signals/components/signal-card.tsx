import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SignalDirection } from '../../../../contracts';
import { Chip, DirectionIcon, Palette, PlatformChip, trendLabel, trendPalette } from '../../../components/ui';
import { PERCENT_DECIMALS, SIGNAL_COUNTDOWN_S } from '../../../config/constants';
import { formatFixed, formatFractionAsPercent } from '../../../lib/format';
import { preferencesStore } from '../../../stores/preferences-store';
import { tradeTokensStore } from '../../../stores/trade-tokens-store';
import { symbolsStore } from '../../../stores/symbols-store';
import { bracketsStore } from '../../../stores/brackets-store';
import { pricesStore } from '../../../stores/prices-store';
import { hideSignalInfo, requestPlatformPreferences, showSignalInfo } from '../signal-info-store';
import { fittingMargin, isPlaceable, placementLine, signalPlacement } from '../signal-placement';
import { disagreeingSignals, removeSignal, signalsStore } from '../signals-store';
import {
  canTradeSignal,
  isAutoOpenDue,
  secondsToAutoOpen,
  tradeFromSignal,
  type OpenTradeFromSignal,
} from '../trade-from-signal';
import { useDetailParam } from '../../../lib/use-detail-param';
import { whatIfStore } from '../../../stores/what-if-store';

/** The query parameter that opens 'Signal Trend Data' (SPEC.md §2). */
export const SIGNAL_DETAIL_PARAM = 'signal_detail_uuid';

/** The neuron chip's text: its tag name, else the first segment of its uuid (SPEC.md §2). */
export function neuronChipText(neuron: { neuron_uuid: string; neuron_tag_name?: string | null }): string {
  return neuron.neuron_tag_name || neuron.neuron_uuid.split('-')[0] || neuron.neuron_uuid;
}

/** The neuron that made a signal, as a chip (SPEC.md §2): on the cards and on the feed's rows (issue 40). */
export function NeuronChip({
  neuron,
  testId,
}: {
  neuron: { neuron_uuid: string; neuron_tag_name?: string | null };
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Chip
      palette={Palette.VIOLET}
      title={t('signal.neuron_tooltip', { uuid: neuron.neuron_uuid })}
      testId={testId}
    >
      {neuronChipText(neuron)}
    </Chip>
  );
}

const RING_RADIUS = 15;
const RING_LENGTH = 2 * Math.PI * RING_RADIUS;

/** The countdown: a ring with the seconds left; hovering shows a close icon, a click removes the card. */
function Countdown({
  secondsLeft,
  onRemove,
  label,
}: {
  secondsLeft: number;
  onRemove: () => void;
  label: string;
}) {
  const dash = (RING_LENGTH * secondsLeft) / SIGNAL_COUNTDOWN_S;
  // The seconds sit beside the button, over its ring: they are in its label already ('Remove signal (n s
  // left)'), and visible text inside a button must be part of its name (WCAG 2.5.3; axe drops the
  // parenthesis when it compares them).
  return (
    <span className="signal-countdown-wrap">
      <button
        type="button"
        className="signal-countdown"
        onClick={onRemove}
        aria-label={label}
        title={label}
        data-testid="signal-countdown"
      >
        <svg viewBox="0 0 36 36" width="34" height="34" aria-hidden="true">
          <circle className="signal-countdown-track" cx="18" cy="18" r={RING_RADIUS} />
          <circle
            className="signal-countdown-ring"
            cx="18"
            cy="18"
            r={RING_RADIUS}
            strokeDasharray={`${dash} ${RING_LENGTH}`}
            transform="rotate(-90 18 18)"
          />
        </svg>
        <svg className="signal-countdown-close" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
      </button>
      <span className="signal-countdown-seconds numeric" aria-hidden="true" data-testid="signal-seconds-left">
        {secondsLeft}
      </span>
    </span>
  );
}

export interface SignalCardProps {
  signalUuid: string;
  secondsLeft: number;
  /** Seconds the card has run, for the auto-open hint. */
  elapsedS: number;
  /** What the trade button does: the app's openTradeFromSignal. */
  onTrade: OpenTradeFromSignal;
}

/**
 * A signal card (SPEC.md §2 "Signals", §4 "Signal card"): platform, symbol, direction, entry price at the
 * symbol's precision, accuracy in percent, trend label and neuron; the countdown and the trade button.
 * While the pointer or focus is on it, the header's signal-info bar shows its platform's trade settings.
 */
export function SignalCard({ signalUuid, secondsLeft, elapsedS, onTrade }: SignalCardProps) {
  const { t } = useTranslation();
  const { open: openSignalDetail } = useDetailParam(SIGNAL_DETAIL_PARAM);
  const { signal_by_uuid, processing_by_uuid, signal_list } = useSnapshot(signalsStore);
  const { token_by_platform_uuid } = useSnapshot(tradeTokensStore);
  const { trade_preferences, platform_preferences_by_uuid } = useSnapshot(preferencesStore);
  const { symbol_dict } = useSnapshot(symbolsStore);
  const { symbol_price_by_uuid } = useSnapshot(pricesStore);
  const { by_platform_uuid: brackets_by_platform_uuid } = useSnapshot(bracketsStore);
  const { by_platform } = useSnapshot(whatIfStore);
  const signal = signal_by_uuid[signalUuid];
  // The platform whose info this card put in the header bar. A card removed under the pointer (traded,
  // expired) gets no mouseleave, so its going hides the info it showed.
  const shownPlatform = useRef<string | undefined>(undefined);
  const isGone = !signal;
  const platformUuid = signal?.platform_uuid;
  const tokenLevel = platformUuid ? token_by_platform_uuid[platformUuid]?.level : undefined;
  // Issue 53: a tradable card checks its order against the exchange's filters, with the platform's settings.
  useEffect(() => {
    if (platformUuid && canTradeSignal(tokenLevel)) requestPlatformPreferences(platformUuid);
  }, [platformUuid, tokenLevel]);
  useEffect(() => {
    const hideOwn = () => {
      if (shownPlatform.current !== undefined) hideSignalInfo(shownPlatform.current);
      shownPlatform.current = undefined;
    };
    if (isGone) hideOwn();
    return hideOwn;
  }, [isGone]);
  if (!signal) return null;
  const show = () => {
    shownPlatform.current = signal.platform_uuid;
    showSignalInfo(signal.platform_uuid);
  };
  const hide = () => {
    shownPlatform.current = undefined;
    hideSignalInfo(signal.platform_uuid);
  };

  const isBuy = signal.signal_direction_created === SignalDirection.BUY;
  const isProcessing = Boolean(processing_by_uuid[signalUuid]);
  const canTrade = canTradeSignal(token_by_platform_uuid[signal.platform_uuid]?.level);
  const symbolText = signal.symbol.symbol_name;
  const settings = platform_preferences_by_uuid[signal.platform_uuid];
  const symbol = symbol_dict[signal.symbol.symbol_uuid];
  // At the latest price when the page has one (the order goes at the mark), else at the signal's entry.
  const price = symbol_price_by_uuid[signal.symbol.symbol_uuid]?.current_price;
  const brackets = brackets_by_platform_uuid[signal.platform_uuid]?.[signal.symbol.symbol_pair];
  const placement = canTrade
    ? signalPlacement(signal, settings, symbol, { price, ...(brackets && { brackets }) })
    : undefined;
  const placeable = isPlaceable(placement);
  const placementText =
    placement && !placeable && settings && symbol
      ? placementLine(t, placement, settings.trade_leverage, symbol)
      : undefined;
  // The one click with the margin that passes (the smallest above the minimum, the largest within the
  // leverage's bracket), said on the button.
  const smallestMargin = fittingMargin(placement);
  const tooltip = !canTrade
    ? t('signal.trade_tooltip.disabled', { platform: signal.platform.platform_name })
    : isProcessing
      ? t('signal.trade_tooltip.processing')
      : placementText !== undefined
        ? placementText
        : isBuy
          ? t('signal.trade_tooltip.buy', { symbol: symbolText })
          : t('signal.trade_tooltip.sell', { symbol: symbolText });
  const autoOpenContext = {
    autoOpenDelayS: trade_preferences?.trade_auto_open_delay ?? 0,
    minimalAccuracyPercent: trade_preferences?.minimal_accuracy,
    tokenLevel: token_by_platform_uuid[signal.platform_uuid]?.level,
  };
  const autoOpenInS = secondsToAutoOpen(signal, elapsedS, { ...autoOpenContext, placeable });
  // Auto-open would have taken it, but the exchange would refuse it: said, not silently skipped.
  const isAutoOpenSkipped = !placeable && isAutoOpenDue(signal, Number.POSITIVE_INFINITY, autoOpenContext);
  const tooltipId = `signal-trade-tooltip-${signalUuid}`;
  // Issue 42: beside the neuron's hit rate, the share of its trades a replay of the trader's settings won.
  const replayed = by_platform[signal.platform_uuid]?.by_neuron.find(
    (tally) => tally.neuron_uuid === signal.neuron?.neuron_uuid,
  );
  const replayedWinRate = replayed?.win_rate ?? null;

  const openDetail = () => openSignalDetail(signalUuid);
  const disagreeing = disagreeingSignals(signal, signal_list, signal_by_uuid);

  return (
    <article
      className={`signal-card ${isBuy ? 'is-buy' : 'is-sell'}`}
      aria-label={t('signal.card_label', {
        symbol: symbolText,
        direction: t(`signal.direction.${signal.signal_direction_created}`),
      })}
      data-testid="signal-card"
      data-signal-uuid={signalUuid}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) hide();
      }}
    >
      <div className="signal-card-head">
        <div className="signal-card-title">
          <PlatformChip
            filled
            name={signal.platform.platform_name}
            background={signal.platform.platform_background}
          />
          <h3 className="signal-symbol" title={signal.symbol.symbol_pair}>
            {symbolText}
          </h3>
        </div>
        <Countdown
          secondsLeft={secondsLeft}
          onRemove={() => removeSignal(signalUuid)}
          label={t('signal.remove', { n: secondsLeft })}
        />
      </div>

      <dl className="signal-figures">
        <div className="signal-figure">
          <dt>{t('signal.direction_label')}</dt>
          <dd className={`signal-direction ${isBuy ? 'is-buy' : 'is-sell'}`} data-testid="signal-direction">
            <DirectionIcon direction={isBuy ? 1 : -1} />
            {t(`signal.direction.${signal.signal_direction_created}`)}
          </dd>
        </div>
        <div className="signal-figure">
          <dt>{t('signal.entry_price')}</dt>
          <dd className="numeric" data-testid="signal-entry-price">
            {formatFixed(signal.signal_price_enter, signal.symbol.symbol_price_precision)}
          </dd>
        </div>
        <div className="signal-figure">
          <dt title={t('signal.accuracy_explained')}>{t('signal.accuracy')}</dt>
          <dd className="numeric" data-testid="signal-accuracy" title={t('signal.accuracy_explained')}>
            {formatFractionAsPercent(signal.signal_accuracy, PERCENT_DECIMALS)} %
          </dd>
        </div>
      </dl>
      {/* Under the figures, the card's width: a sentence, not a fourth column (it would squeeze the others). */}
      {replayedWinRate !== null && (
        <p
          className="signal-replayed muted"
          data-testid="signal-replayed"
          title={t('signal.replayed_win_rate_title')}
        >
          {t('signal.replayed_win_rate', { value: formatFixed(replayedWinRate, 0) })}
        </p>
      )}

      <div className="signal-card-foot">
        <div className="signal-tags">
          <Chip
            palette={trendPalette(signal.trend_moment)}
            title={t('signal.trend_tooltip')}
            testId="signal-trend"
          >
            {t(`trend_label.${trendLabel(signal.trend_moment)}`)}
          </Chip>
          {signal.neuron ? <NeuronChip neuron={signal.neuron} testId="signal-neuron" /> : null}
          {disagreeing.length > 0 ? (
            <Chip
              palette={Palette.ORANGE}
              title={t('signal.disagrees_title', {
                neurons: [
                  ...new Set(disagreeing.map((other) => (other.neuron ? neuronChipText(other.neuron) : '—'))),
                ].join(', '),
              })}
              testId="signal-disagrees"
            >
              {t('signal.disagrees')}
            </Chip>
          ) : null}
        </div>
        <div className="signal-actions">
          <button
            type="button"
            className="icon-button signal-detail-button"
            onClick={openDetail}
            aria-label={t('signal.open_detail')}
            title={t('signal.open_detail')}
            data-testid="signal-detail"
          >
            <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
              <path
                d="M3 15l4-5 3 2.5L16 5"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.7"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
              <path d="M3 17.5h14" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
            </svg>
          </button>
          {/* The tooltip sits on a wrapper: a disabled button receives no pointer events in every browser. */}
          <span className="signal-trade-wrap" title={tooltip} data-testid="signal-trade-tooltip">
            <button
              type="button"
              className={`button is-small signal-trade ${isBuy ? 'is-buy' : 'is-sell'}`}
              disabled={!canTrade || isProcessing || (!placeable && smallestMargin === undefined)}
              aria-busy={isProcessing}
              aria-describedby={tooltipId}
              onClick={() =>
                void tradeFromSignal(
                  signalUuid,
                  onTrade,
                  smallestMargin === undefined ? undefined : { margin: Number(smallestMargin) },
                )
              }
              data-testid="signal-trade"
            >
              {smallestMargin === undefined
                ? isBuy
                  ? t('signal.trade_buy')
                  : t('signal.trade_sell')
                : t(isBuy ? 'signal.trade_buy_with' : 'signal.trade_sell_with', { margin: smallestMargin })}
            </button>
            <span id={tooltipId} className="visually-hidden">
              {tooltip}
            </span>
          </span>
        </div>
      </div>
      {placementText !== undefined ? (
        <p className="signal-placement" role="note" data-testid="signal-placement">
          {placementText}
          {isAutoOpenSkipped ? (
            <span className="signal-placement-auto">{t('signal.placement.auto_open_skipped')}</span>
          ) : null}
        </p>
      ) : null}
      {autoOpenInS !== undefined && !isProcessing ? (
        <p className="signal-auto-open muted" data-testid="signal-auto-open">
          {t('signal.auto_open_in', { n: autoOpenInS })}
        </p>
      ) : null}
    </article>
  );
}
