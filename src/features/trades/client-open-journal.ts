// Client-mode opens that did not finish (docs/spa.md "Faults"). In client mode this browser places the
// market order and then the stop itself, then records the trade; a page closed (or crashed, or offline) in
// between leaves a position the server has no record of, perhaps without its stop. Before the market order
// the open is noted in local storage; it is forgotten once recorded, or once it is known that nothing stayed
// open. A noted open this page is not running is completed at the platform's next balance read with the PIN
// (trade-reconcile.ts): lib/trade-flow.ts completeInterruptedOpen decides from the trade's own market order,
// places the missing stop, and the trade is recorded and announced. The note holds no secret: the signal, the
// symbol and the trade settings.
import { z } from 'zod';
import { signalDirection, tradeCreateBase, TradeError } from '../../../contracts';
import { StorageKey } from '../../config/storage-keys';
import { ApiError, ApiErrorKind } from '../../lib/api-client';
import { ExchangeError, type ExchangeClient } from '../../../shared-core/exchange-client';
import { completeInterruptedOpen, OpenFailure, TradeOpenError } from '../../../shared-core/trade-flow';
import { authStore } from '../../stores/auth-store';
import { addNotification, NotificationType } from '../../stores/notifications-store';
import { clientTradeRecord, createClientTrade } from './api/create-client-trade';
import { markTradeErrorAnnounced } from './trade-error-notices';
import { exchangeErrorLine, failureLine } from './trade-notifications';
import { announceSignalTraded, scheduleOpenTradesRefetch } from './trades-store';

/**
 * A noted open is completed by another page only this long after it began: the page running it finishes in
 * seconds unless the exchange is slow, and one that finishes anyway only meets a stop already placed (kept)
 * and a record already made (refused as a duplicate).
 */
export const CLIENT_OPEN_RESUME_AFTER_MS = 20_000;

const HTTP_CONFLICT = 409;

const clientOpen = tradeCreateBase.extend({
  user_uuid: z.string().min(1),
  platform_uuid: z.string().min(1),
  symbol_pair: z.string().min(1),
  symbol_price_precision: z.number().int().min(0),
  trade_direction: signalDirection,
  /** Epoch ms when the open began. */
  started_at: z.number(),
});
export type ClientOpen = z.infer<typeof clientOpen>;

/** Opens this page is running now (the others in the journal were left by a page that went away). */
const running = new Set<string>();

/** The noted opens; a note that cannot be read is dropped (there is nothing else to do with it). */
export function readClientOpens(): ClientOpen[] {
  const stored = localStorage.getItem(StorageKey.CLIENT_OPENS);
  if (stored === null) return [];
  try {
    return z.array(clientOpen).parse(JSON.parse(stored));
  } catch (error) {
    console.error('client opens: an unreadable note was dropped', error);
    localStorage.removeItem(StorageKey.CLIENT_OPENS);
    return [];
  }
}

function writeClientOpens(opens: readonly ClientOpen[]): void {
  if (opens.length === 0) localStorage.removeItem(StorageKey.CLIENT_OPENS);
  else localStorage.setItem(StorageKey.CLIENT_OPENS, JSON.stringify(opens));
}

function forget(signalUuid: string): void {
  writeClientOpens(readClientOpens().filter((open) => open.signal_uuid !== signalUuid));
}

/**
 * Runs a client-mode open (`open`: the exchange steps and the record, answering undefined when the position is
 * open but was not recorded) with its note: written before; dropped when the trade was recorded or nothing
 * stayed open (an exchange error before the market order filled, or the position closed again after its stop
 * was refused); kept otherwise (not recorded, the market order unconfirmed, or anything unexpected).
 */
export async function runNotedClientOpen<T>(
  note: Omit<ClientOpen, 'started_at'>,
  open: () => Promise<T | undefined>,
): Promise<T | undefined> {
  writeClientOpens([
    ...readClientOpens().filter((item) => item.signal_uuid !== note.signal_uuid),
    { ...note, started_at: Date.now() },
  ]);
  running.add(note.signal_uuid);
  try {
    const result = await open();
    if (result !== undefined) forget(note.signal_uuid);
    return result;
  } catch (error) {
    const nothingOpen =
      error instanceof ExchangeError ||
      (error instanceof TradeOpenError && error.failure === OpenFailure.STOP_REJECTED_POSITION_CLOSED);
    if (nothingOpen) forget(note.signal_uuid);
    throw error;
  } finally {
    running.delete(note.signal_uuid);
  }
}

/** Whether `open` was left by a page that went away, for the current user and `platformUuid`. */
function isLeft(open: ClientOpen, platformUuid: string, now: number): boolean {
  return (
    open.user_uuid === authStore.user?.user_uuid &&
    open.platform_uuid === platformUuid &&
    !running.has(open.signal_uuid) &&
    now - open.started_at >= CLIENT_OPEN_RESUME_AFTER_MS
  );
}

/** The platforms with opens a page left unfinished, for the current user (Repair completes them too). */
export function platformsWithLeftClientOpens(): string[] {
  const now = Date.now();
  const opens = readClientOpens().filter((open) => isLeft(open, open.platform_uuid, now));
  return [...new Set(opens.map((open) => open.platform_uuid))];
}

/**
 * Completes the opens of `platformUuid` a page left unfinished (best effort: a failure keeps the note for the
 * next balance read). Returns how many trades it recorded.
 */
export async function resumeClientOpens(platformUuid: string, client: ExchangeClient): Promise<number> {
  const now = Date.now();
  let recorded = 0;
  for (const open of readClientOpens().filter((item) => isLeft(item, platformUuid, now))) {
    let outcome;
    try {
      outcome = await completeInterruptedOpen(client, open);
    } catch (error) {
      console.error(`client opens: ${open.symbol_pair} is not known yet`, error);
      continue;
    }
    if (outcome.state !== 'open') {
      forget(open.signal_uuid);
      continue;
    }
    const { opened } = outcome;
    try {
      await createClientTrade(clientTradeRecord(open.signal_uuid, open, opened));
    } catch (error) {
      const refused =
        error instanceof ApiError && error.kind === ApiErrorKind.HTTP_ERROR && (error.status ?? 0) < 500;
      if (!refused) {
        console.error(`client opens: ${open.symbol_pair} could not be recorded yet`, error);
        continue;
      }
      // Recorded already (by the page that opened it, or another tab), or refused for good: the position is
      // on the exchange with its stop, and a refusal is told once.
      forget(open.signal_uuid);
      if (error.status !== HTTP_CONFLICT) {
        addNotification(
          NotificationType.ERROR,
          ['trades.notify.record_failed', open.symbol_pair, failureLine(error)],
          { isOnlyManualClose: true },
        );
      }
      continue;
    }
    forget(open.signal_uuid);
    announceSignalTraded(open.signal_uuid);
    recorded += 1;
    if (opened.trade_stop_order_id === null) {
      markTradeErrorAnnounced(open.signal_uuid, TradeError.STOP_MISSING);
      addNotification(
        NotificationType.WARNING,
        [
          'trades.notify.open_completed_without_stop',
          open.symbol_pair,
          ...(opened.stop_error ? [exchangeErrorLine(opened.stop_error)] : []),
        ],
        { isOnlyManualClose: true },
      );
    } else {
      addNotification(NotificationType.WARNING, ['trades.notify.open_completed', open.symbol_pair], {
        isOnlyManualClose: true,
      });
    }
  }
  if (recorded > 0) scheduleOpenTradesRefetch();
  return recorded;
}
