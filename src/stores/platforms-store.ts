// Platforms (SPEC.md §3): the exchanges a trader can connect, keyed by platform_uuid.
import { proxy } from 'valtio';
import type { Platform, PlatformDict } from '../../contracts/platforms';
import { getAvailablePlatforms } from './api/get-available-platforms';

interface PlatformsState {
  platform_dict: PlatformDict;
  is_loaded: boolean;
  is_loading: boolean;
}

export const platformsStore = proxy<PlatformsState>({
  platform_dict: {},
  is_loaded: false,
  is_loading: false,
});

export async function loadPlatforms(): Promise<void> {
  platformsStore.is_loading = true;
  try {
    platformsStore.platform_dict = await getAvailablePlatforms();
    platformsStore.is_loaded = true;
  } catch (error) {
    console.error(error);
  } finally {
    platformsStore.is_loading = false;
  }
}

/** Platforms in a stable order for lists: by name. */
export function sortedPlatforms(dict: Readonly<Record<string, Platform>>): Platform[] {
  return Object.values(dict).sort((a, b) => a.platform_name.localeCompare(b.platform_name));
}

export function resetPlatformsStore(): void {
  platformsStore.platform_dict = {};
  platformsStore.is_loaded = false;
  platformsStore.is_loading = false;
}
