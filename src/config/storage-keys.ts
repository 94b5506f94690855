// Local storage keys of SPEC.md §3. Trade tokens are stored under their platform_uuid.
export const StorageKey = {
  ACCESS_TOKEN: 'access_token',
  SELECTED_THEME: 'selected_theme',
  NOTIFICATION_LIST: 'notification_list',
  SIDEBAR_OPEN: 'sidebar_open',
  LANGUAGE: 'i18nextLng',
  /** Client-mode opens not finished yet (features/trades/client-open-journal.ts); not in SPEC.md §3. */
  CLIENT_OPENS: 'client_opens',
} as const;
export type StorageKey = (typeof StorageKey)[keyof typeof StorageKey];

/** The client-mode trade token envelope of a platform is stored under the bare platform_uuid (SPEC.md §3). */
export function tradeTokenStorageKey(platformUuid: string): string {
  return platformUuid;
}
