// Notifications of SPEC.md §3/§4: four types, auto-close after 6 s (10 s for Error) unless manual-close-only,
// closing hides an item but keeps it in the history, the list is persisted (cap 500, oldest dropped).
import { proxy } from 'valtio';
import {
  NOTIFICATION_AUTO_CLOSE_MS,
  NOTIFICATION_ERROR_AUTO_CLOSE_MS,
  NOTIFICATION_LIST_MAX_COUNT,
} from '../config/constants';
import { StorageKey } from '../config/storage-keys';

export const NotificationType = {
  INFORMATION: 'Information',
  WARNING: 'Warning',
  ERROR: 'Error',
  SUCCESS: 'Success',
} as const;
export type NotificationType = (typeof NotificationType)[keyof typeof NotificationType];

export interface NotificationItem {
  uuid: string;
  type: NotificationType;
  /** Message keys (translated when shown) or plain strings (shown as they are). */
  description: string[];
  /** Epoch milliseconds. */
  created_at: number;
  isVisible: boolean;
  isOnlyManualClose: boolean;
}

interface NotificationsState {
  notification_list: NotificationItem[];
  is_history_open: boolean;
}

export const notificationsStore = proxy<NotificationsState>({
  notification_list: [],
  is_history_open: false,
});

// Auto-close timers are not store state (DESIGN.md): kept here by notification uuid.
const timers = new Map<string, ReturnType<typeof setTimeout>>();

const TYPES = new Set<string>(Object.values(NotificationType));

function persist(): void {
  try {
    localStorage.setItem(StorageKey.NOTIFICATION_LIST, JSON.stringify(notificationsStore.notification_list));
  } catch {
    // Storage full or unavailable: the list still works for this session.
  }
}

function isNotificationItem(value: unknown): value is NotificationItem {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return (
    typeof item.uuid === 'string' &&
    typeof item.type === 'string' &&
    TYPES.has(item.type) &&
    Array.isArray(item.description) &&
    item.description.every((line) => typeof line === 'string') &&
    typeof item.created_at === 'number'
  );
}

export interface AddNotificationOptions {
  isOnlyManualClose?: boolean;
}

/**
 * Adds a notification and schedules its auto-close; returns its uuid. A visible toast that says exactly the same
 * and closes by itself is hidden first (it stays in the history): four edits saved in a row show one "saved"
 * toast, not a stack of four over the fields (issue 53).
 */
export function addNotification(
  type: NotificationType,
  description: string | string[],
  options: AddNotificationOptions = {},
): string {
  const uuid = crypto.randomUUID();
  const isOnlyManualClose = options.isOnlyManualClose ?? false;
  const list = notificationsStore.notification_list;
  const lines = Array.isArray(description) ? description : [description];
  if (!isOnlyManualClose) {
    for (const item of list) {
      if (sameNews(item, type, lines)) closeNotification(item.uuid);
    }
  }
  list.push({
    uuid,
    type,
    description: lines,
    created_at: Date.now(),
    isVisible: true,
    isOnlyManualClose,
  });
  if (list.length > NOTIFICATION_LIST_MAX_COUNT) list.splice(0, list.length - NOTIFICATION_LIST_MAX_COUNT);
  persist();
  if (!isOnlyManualClose) {
    const delayMs =
      type === NotificationType.ERROR ? NOTIFICATION_ERROR_AUTO_CLOSE_MS : NOTIFICATION_AUTO_CLOSE_MS;
    timers.set(
      uuid,
      setTimeout(() => closeNotification(uuid), delayMs),
    );
  }
  return uuid;
}

function sameNews(item: NotificationItem, type: NotificationType, lines: string[]): boolean {
  return (
    item.isVisible &&
    !item.isOnlyManualClose &&
    item.type === type &&
    item.description.length === lines.length &&
    item.description.every((line, index) => line === lines[index])
  );
}

/** Hides a notification; it stays in the history list. */
export function closeNotification(uuid: string): void {
  const timer = timers.get(uuid);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(uuid);
  const item = notificationsStore.notification_list.find((entry) => entry.uuid === uuid);
  if (!item || !item.isVisible) return;
  item.isVisible = false;
  persist();
}

export function toggleNotificationHistory(): void {
  notificationsStore.is_history_open = !notificationsStore.is_history_open;
}

/** Empties the history (and the floating list). */
export function clearNotificationHistory(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  notificationsStore.notification_list = [];
  persist();
}

/**
 * Reloads the persisted list at start. Items from an earlier session come back hidden (their auto-close
 * timers are gone). A list that cannot be parsed is dropped with the 'Notification load error' (SPEC.md §8).
 */
export function loadNotifications(): void {
  const stored = localStorage.getItem(StorageKey.NOTIFICATION_LIST);
  if (stored === null) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || !parsed.every(isNotificationItem)) {
    notificationsStore.notification_list = [];
    localStorage.removeItem(StorageKey.NOTIFICATION_LIST);
    addNotification(NotificationType.ERROR, 'notification.load_error');
    return;
  }
  notificationsStore.notification_list = parsed
    .slice(-NOTIFICATION_LIST_MAX_COUNT)
    .map((item) => ({ ...item, isVisible: false, isOnlyManualClose: Boolean(item.isOnlyManualClose) }));
}

export function resetNotificationsStore(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  notificationsStore.notification_list = [];
  notificationsStore.is_history_open = false;
}

/** 'Now' for the first minute, then whole minutes (SPEC.md §4). */
export function minutesAgo(createdAtMs: number, nowMs: number): number {
  return Math.floor(Math.max(0, nowMs - createdAtMs) / 60_000);
}
