// Bitcoin public information (SPEC.md §3), from REST at start and from bitcoin_public_information_from_core.
import { proxy } from 'valtio';
import type { BitcoinPublicInformation } from '../../../contracts';
import { getBitcoinPublicInformation } from './api/get-bitcoin-public-information';

interface BitcoinState {
  information: BitcoinPublicInformation | undefined;
}

export const bitcoinStore = proxy<BitcoinState>({ information: undefined });

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

export function resetBitcoinStore(): void {
  bitcoinStore.information = undefined;
}
