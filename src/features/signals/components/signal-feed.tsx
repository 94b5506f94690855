// The signal feed under the live cards (issue 18 item 5; contracts/signal-feed.ts): the last hour's signals
// that passed the trader's filter, each with its outcome as it resolves (hit, miss, open) and its neuron's
// accuracy now, and how many signals the engine made in the hour and when its last one was, so the page is never
// empty between live cards. Read every SIGNAL_FEED_REFRESH_MS while shown; the live cards are untouched.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignalFeed as Feed, SignalFeedItem } from '../../../../contracts';
import { Chip, Palette } from '../../../components/ui';
import { formatFractionAsPercent } from '../../../lib/format';
import { formatDate } from '../../../lib/i18n';
import { NeuronChip } from './signal-card';
import { getSignalFeed } from '../api/get-signal-feed';

const SIGNAL_FEED_REFRESH_MS = 20_000;

const OUTCOME_PALETTE: Readonly<Record<SignalFeedItem['signal_outcome'], Palette>> = {
  hit: Palette.GREEN,
  miss: Palette.RED,
  open: Palette.GRAY,
};

/** 24-hour, in the app's language (issue 40: not the browser's default, which may be AM/PM). */
function time(iso: string): string {
  return formatDate('time_of_day_seconds', new Date(iso));
}

function FeedRow({ item }: { item: SignalFeedItem }) {
  const { t } = useTranslation();
  const { signal } = item;
  return (
    <li
      className="signal-feed-row"
      data-testid="signal-feed-row"
      data-signal-uuid={signal.signal_uuid}
      data-outcome={item.signal_outcome}
    >
      <span className="numeric muted">{time(signal.signal_created_at)}</span>
      <span className="signal-feed-pair">{signal.symbol.symbol_pair}</span>
      <span className={signal.signal_direction_created === 'BUY' ? 'is-buy' : 'is-sell'}>
        {t(`signal.direction.${signal.signal_direction_created}`)}
      </span>
      {/* Issue 40: which neuron made it — two neurons may signal one symbol in the same minute. */}
      {signal.neuron ? <NeuronChip neuron={signal.neuron} testId="signal-feed-neuron" /> : null}
      <span className="numeric" title={t('signal_feed.accuracy_made')}>
        {formatFractionAsPercent(signal.signal_accuracy, 1)} %
      </span>
      <Chip palette={OUTCOME_PALETTE[item.signal_outcome]} testId="signal-feed-outcome">
        {t(`signal_feed.outcome.${item.signal_outcome}`)}
      </Chip>
      <span className="numeric muted" title={t('signal_feed.neuron_accuracy_title')}>
        {item.neuron_accuracy === null
          ? t('signal_feed.neuron_accuracy_none')
          : t('signal_feed.neuron_accuracy', { value: formatFractionAsPercent(item.neuron_accuracy, 1) })}
      </span>
      {item.is_traded && <span className="muted">{t('signal_feed.traded')}</span>}
    </li>
  );
}

export function SignalFeed() {
  const { t } = useTranslation();
  const [feed, setFeed] = useState<Feed | undefined>();

  useEffect(() => {
    let isLive = true;
    const read = () =>
      getSignalFeed().then(
        (answer) => isLive && setFeed(answer),
        (error: unknown) => console.error(error),
      );
    void read();
    const timer = setInterval(() => void read(), SIGNAL_FEED_REFRESH_MS);
    return () => {
      isLive = false;
      clearInterval(timer);
    };
  }, []);

  if (!feed) return null;
  return (
    <div className="signal-feed" data-testid="signal-feed">
      <p className="muted signal-feed-engine" data-testid="signal-feed-engine">
        {t('signal_feed.engine', { count: feed.engine_signal_count, minutes: feed.window_minutes })}
        {feed.engine_last_signal_at
          ? ` ${t('signal_feed.last', { time: time(feed.engine_last_signal_at) })}`
          : ` ${t('signal_feed.never')}`}
      </p>
      {feed.signal_list.length === 0 ? (
        <p className="muted" data-testid="signal-feed-empty">
          {t('signal_feed.empty', { accuracy: feed.minimal_accuracy })}
        </p>
      ) : (
        // Focusable: the list scrolls, and a keyboard user must be able to scroll it (axe scrollable-region-focusable).
        <ul className="signal-feed-list" aria-label={t('signal_feed.label')} tabIndex={0}>
          {feed.signal_list.map((item) => (
            <FeedRow key={item.signal.signal_uuid} item={item} />
          ))}
        </ul>
      )}
    </div>
  );
}
