import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { ANALYSIS_DEBOUNCE_MS, analysisStore, loadAnalysis } from '../analysis-store';

/**
 * Keeps the analysis in step with the chosen range: read at once when the page opens, then
 * ANALYSIS_DEBOUNCE_MS after the last change of either day (SPEC.md §5), so stepping through days sends one
 * request for the day the trader stops at. A range already asked for is not asked again (a change undone
 * within the delay, React's development double effects).
 */
export function useAnalysisQuery(): void {
  const { startDate, endDate } = useSnapshot(analysisStore);
  const requested = useRef<string | undefined>(undefined);
  useEffect(() => {
    const range = `${startDate ?? ''}/${endDate ?? ''}`;
    if (requested.current === range) return;
    const run = () => {
      requested.current = range;
      void loadAnalysis();
    };
    if (requested.current === undefined) {
      run();
      return;
    }
    const timer = setTimeout(run, ANALYSIS_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [startDate, endDate]);
}
