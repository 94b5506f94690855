import { useEffect } from 'react';
import { STATISTICS_REFRESH_MS } from '../statistics-format';
import { loadStatistics } from '../statistics-store';

/**
 * Reads the statistics when the dashboard opens and every 5 minutes while it stays open: the server adds
 * one last-day point per 5 minutes (SPEC.md §9). The timer is the page's, not store state.
 */
export function useStatisticsRefresh(): void {
  useEffect(() => {
    void loadStatistics();
    const timer = setInterval(() => void loadStatistics(), STATISTICS_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
}
