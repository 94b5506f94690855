import { houseRecordAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';

/**
 * GET /api/public/get_house_record/ (issue 42): the house's settings (the new-trader defaults) and since which UTC
 * day its trades carry them and book fees.
 */
export async function getHouseRecord() {
  const answer = await apiGet('public/get_house_record/', houseRecordAnswer);
  return answer.result;
}
