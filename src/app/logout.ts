import { endSession } from '../features/auth/auth-store';
import { resetAllStores } from './reset-all-stores';

/** Logout (SPEC.md §4): ends the session, clears local storage, resets every store. The caller goes to /. */
export async function logoutAndReset(): Promise<void> {
  await endSession();
  localStorage.clear();
  resetAllStores();
}
