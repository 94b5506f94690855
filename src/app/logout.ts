import { endSession } from '../stores/auth-store';
import { stopLiveEvents } from './live-events';
import { resetAllStores } from './reset-all-stores';
import { forgetPushDevice } from '../features/push/push-device';

/**
 * Logout (SPEC.md §4): closes the websocket, ends the session, clears local storage, resets every store.
 * First this device's push subscription is removed (issue 41), while the token still authenticates it.
 * The caller goes to /.
 */
export async function logoutAndReset(): Promise<void> {
  await forgetPushDevice();
  // No event may land in the stores once they are reset.
  stopLiveEvents();
  await endSession();
  localStorage.clear();
  resetAllStores();
}
