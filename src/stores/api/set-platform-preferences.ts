import { z } from 'zod';
import type { SetPlatformPreferencesBody } from '../../../contracts/preferences';
import { apiPost } from '../../lib/api-client';

/** POST /api/platform_preferences/set_preferences/ (SPEC.md §7; the answer is not used). */
export async function setPlatformPreferences(body: SetPlatformPreferencesBody): Promise<void> {
  // keepalive: an edit flushed as the tab closes still reaches the server (issue 53).
  await apiPost('platform_preferences/set_preferences/', body, z.unknown(), { keepalive: true });
}
