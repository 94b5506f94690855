import { getAvailablePlatformsDictAnswer } from '../../../contracts/platforms';
import { apiGet } from '../../lib/api-client';

/** GET /api/platform/get_available_platforms_dict/ → result.platform_dict (SPEC.md §7). */
export async function getAvailablePlatforms() {
  const answer = await apiGet('platform/get_available_platforms_dict/', getAvailablePlatformsDictAnswer);
  return answer.result.platform_dict;
}
