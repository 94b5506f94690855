import { getAnalysisAnswer, type AnalysisRequest } from '../../../../contracts';
import { apiPost } from '../../../lib/api-client';

/** POST /api/analysis/get_analysis/ (SPEC.md §7): the signals' correlation with bitcoin over lags. */
export async function getAnalysis(request: AnalysisRequest) {
  const answer = await apiPost('analysis/get_analysis/', request, getAnalysisAnswer);
  return answer.result;
}
