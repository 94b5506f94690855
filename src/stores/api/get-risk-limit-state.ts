import { riskLimitStateAnswer } from '../../../contracts/risk-limits';
import { apiGet } from '../../lib/api-client';

/** GET /api/trade/get_risk_limit_state/ → the trader's risk limits and where they stand (issue 18). */
export async function getRiskLimitState() {
  const answer = await apiGet('trade/get_risk_limit_state/', riskLimitStateAnswer);
  return answer.result;
}
