import { platformPreferencesAnswer } from '../../../contracts/preferences';
import { apiGet } from '../../lib/api-client';

/** GET /api/platform_preferences/get_preferences_by_platform_uuid/{platform_uuid}/ (SPEC.md §7). */
export async function getPlatformPreferences(platformUuid: string) {
  const path = `platform_preferences/get_preferences_by_platform_uuid/${encodeURIComponent(platformUuid)}/`;
  const answer = await apiGet(path, platformPreferencesAnswer);
  return answer.result;
}
