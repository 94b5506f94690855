// Light and dark theme (SPEC.md §1): names app_light_theme and app_dark_theme, read from local storage
// under selected_theme, dark by default.
import { proxy } from 'valtio';
import { StorageKey } from '../../config/storage-keys';

export const Theme = { LIGHT: 'app_light_theme', DARK: 'app_dark_theme' } as const;
export type Theme = (typeof Theme)[keyof typeof Theme];

function storedTheme(): Theme {
  const stored = localStorage.getItem(StorageKey.SELECTED_THEME);
  return stored === Theme.LIGHT ? Theme.LIGHT : Theme.DARK;
}

export const themeStore = proxy<{ theme: Theme }>({ theme: storedTheme() });

function setTheme(theme: Theme): void {
  themeStore.theme = theme;
  localStorage.setItem(StorageKey.SELECTED_THEME, theme);
}

export function toggleTheme(): void {
  setTheme(themeStore.theme === Theme.DARK ? Theme.LIGHT : Theme.DARK);
}

/** Back to what storage says (after logout cleared it: dark). */
export function resetThemeStore(): void {
  themeStore.theme = storedTheme();
}
