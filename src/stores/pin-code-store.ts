// PIN codes per platform_uuid (SPEC.md §3): client memory only. This proxy is never persisted or logged.
import { proxy } from 'valtio';

export const pinCodeStore = proxy<{ pin_code_by_platform_uuid: Record<string, string> }>({
  pin_code_by_platform_uuid: {},
});

export function getPinCode(platformUuid: string): string | undefined {
  return pinCodeStore.pin_code_by_platform_uuid[platformUuid];
}

export function putPinCode(platformUuid: string, pinCode: string): void {
  pinCodeStore.pin_code_by_platform_uuid[platformUuid] = pinCode;
}

export function deletePinCode(platformUuid: string): void {
  delete pinCodeStore.pin_code_by_platform_uuid[platformUuid];
}

export function resetPinCodeStore(): void {
  pinCodeStore.pin_code_by_platform_uuid = {};
}
