// Shell state: the sidebar's open state (remembered in storage, open by default) and which auth dialog is open.
import { proxy } from 'valtio';
import { SIDEBAR_OVERLAY_MAX_WIDTH_PX } from '../config/constants';
import { StorageKey } from '../config/storage-keys';

export const AuthDialog = { LOGIN: 'login', SIGNUP: 'signup' } as const;
export type AuthDialog = (typeof AuthDialog)[keyof typeof AuthDialog];

interface LayoutState {
  is_sidebar_open: boolean;
  auth_dialog: AuthDialog | undefined;
}

/** Narrow screens show the sidebar as an overlay over the page. */
export function isOverlayViewport(): boolean {
  return typeof window !== 'undefined' && window.innerWidth <= SIDEBAR_OVERLAY_MAX_WIDTH_PX;
}

/**
 * The stored state wins. With nothing stored the sidebar is open (SPEC.md §2), except on a narrow screen, where
 * an open overlay would hide the page on first visit.
 */
function storedSidebarOpen(): boolean {
  const stored = localStorage.getItem(StorageKey.SIDEBAR_OPEN);
  if (stored === 'true') return true;
  if (stored === 'false') return false;
  return !isOverlayViewport();
}

export const layoutStore = proxy<LayoutState>({
  is_sidebar_open: storedSidebarOpen(),
  auth_dialog: undefined,
});

export function setSidebarOpen(isOpen: boolean): void {
  layoutStore.is_sidebar_open = isOpen;
  localStorage.setItem(StorageKey.SIDEBAR_OPEN, String(isOpen));
}

export function toggleSidebar(): void {
  setSidebarOpen(!layoutStore.is_sidebar_open);
}

export function openAuthDialog(dialog: AuthDialog): void {
  layoutStore.auth_dialog = dialog;
}

export function closeAuthDialog(): void {
  layoutStore.auth_dialog = undefined;
}

export function resetLayoutStore(): void {
  layoutStore.is_sidebar_open = storedSidebarOpen();
  layoutStore.auth_dialog = undefined;
}
