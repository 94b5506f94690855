import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Theme, themeStore, toggleTheme } from '../theme-store';

/** Puts the current theme on <html data-theme> so the CSS variables of styles.css apply. */
export function useApplyTheme(): void {
  const { theme } = useSnapshot(themeStore);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}

/** Switch between the dark and the light theme (SPEC.md §2, sidebar bottom). */
export function ThemeToggle() {
  const { t } = useTranslation();
  const { theme } = useSnapshot(themeStore);
  const isDark = theme === Theme.DARK;
  return (
    <button
      type="button"
      className="toggle-button"
      role="switch"
      aria-checked={isDark}
      aria-label={t('theme.dark')}
      title={isDark ? t('theme.switch_to_light') : t('theme.switch_to_dark')}
      onClick={toggleTheme}
      data-testid="theme-toggle"
    >
      <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
        {isDark ? (
          <path d="M15.5 12.5A6.5 6.5 0 0 1 7.5 4.5a6.5 6.5 0 1 0 8 8z" fill="currentColor" />
        ) : (
          <g stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" fill="none">
            <circle cx="10" cy="10" r="3.5" />
            <path d="M10 1.5v2M10 16.5v2M1.5 10h2M16.5 10h2M4 4l1.4 1.4M14.6 14.6L16 16M4 16l1.4-1.4M14.6 5.4L16 4" />
          </g>
        )}
      </svg>
      <span>{isDark ? t('theme.dark') : t('theme.light')}</span>
    </button>
  );
}
