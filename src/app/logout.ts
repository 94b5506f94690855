import { endSession } from '../stores/auth-store';
import { stopLiveEvents } from './live-events';
import { resetAllStores } from './reset-all-stores';

/**
 * Logout (SPEC.md §4): closes the websocket, ends the session, clears local storage, resets every store.
 * The caller goes to /.
 */
export async function logoutAndReset(): Promise<void> {
  // No event may land in the stores once they are reset.
  stopLiveEvents();
  await endSession();
  localStorage.clear();
  resetAllStores();
}
