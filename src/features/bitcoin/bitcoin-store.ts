// Bitcoin public information (SPEC.md §3), from REST at start and from bitcoin_public_information_from_core,
// and the trend data of the 'Bitcoin Public Information' modal (refetched each time it opens, SPEC.md §2).
import { proxy } from 'valtio';
import type { BitcoinPublicInformation, BitcoinPublicTrendData } from '../../../contracts';
import { getBitcoinPublicInformation } from './api/get-bitcoin-public-information';
import { getBitcoinPublicTrendData } from './api/get-bitcoin-public-trend-data';
import { createUnusedDataCache } from '../../lib/unused-data';

interface BitcoinState {
  information: BitcoinPublicInformation | undefined;
  trend_data: BitcoinPublicTrendData | undefined;
  is_trend_data_loading: boolean;
  /** Error text of the last failed trend data read; cleared by the next success. */
  trend_data_error: string | undefined;
}

function initialState(): BitcoinState {
  return {
    information: undefined,
    trend_data: undefined,
    is_trend_data_loading: false,
    trend_data_error: undefined,
  };
}

export const bitcoinStore = proxy<BitcoinState>(initialState());

export function setBitcoinInformation(information: BitcoinPublicInformation): void {
  bitcoinStore.information = information;
}

export async function loadBitcoinInformation(): Promise<void> {
  try {
    setBitcoinInformation(await getBitcoinPublicInformation());
  } catch (error) {
    // Public information failures are only logged; the widget keeps the last value (SPEC.md §8).
    console.error(error);
  }
}

/** The one key of the bitcoin trend data in bitcoinTrendCache. */
export const BITCOIN_TREND_KEY = 'bitcoin_trend';

/**
 * The modal's trend data (and its read's error) is cached API data (SPEC.md §9, lib/unused-data.ts): dropped
 * CACHED_DATA_UNUSED_MS after the modal's body last showed it. The widget's information stays (live state).
 */
export const bitcoinTrendCache = createUnusedDataCache(() => {
  bitcoinStore.trend_data = undefined;
  bitcoinStore.trend_data_error = undefined;
});

/**
 * Reads the trend data again (opening the modal invalidates the cached copy, SPEC.md §2). The previous copy
 * stays on screen while the new one loads.
 */
export async function loadBitcoinTrendData(): Promise<void> {
  bitcoinStore.is_trend_data_loading = true;
  try {
    const trendData = await getBitcoinPublicTrendData();
    bitcoinStore.trend_data = trendData;
    bitcoinStore.trend_data_error = undefined;
    // The answer carries the current information too: the widget shows the newest.
    setBitcoinInformation(trendData.bitcoin_public_information);
  } catch (error) {
    console.error(error);
    bitcoinStore.trend_data_error = error instanceof Error ? error.message : String(error);
  } finally {
    bitcoinStore.is_trend_data_loading = false;
    bitcoinTrendCache.written(BITCOIN_TREND_KEY);
  }
}

export function resetBitcoinStore(): void {
  bitcoinTrendCache.reset();
  Object.assign(bitcoinStore, initialState());
}
