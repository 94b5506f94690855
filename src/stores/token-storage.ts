// Client-mode trade token envelopes in local storage, one item per platform_uuid (SPEC.md §3). The item holds
// only the trade-core envelope text, never the plaintext key or secret.
import { tradeTokenStorageKey } from '../config/storage-keys';

export function readTokenEnvelope(platformUuid: string): string | null {
  return localStorage.getItem(tradeTokenStorageKey(platformUuid));
}

export function writeTokenEnvelope(platformUuid: string, envelope: string): void {
  localStorage.setItem(tradeTokenStorageKey(platformUuid), envelope);
}

export function removeTokenEnvelope(platformUuid: string): void {
  localStorage.removeItem(tradeTokenStorageKey(platformUuid));
}
