// Boot: trade-core (pkg/) first, then translations, then render (DESIGN.md layout).
// The base styles come first so component styles (imported by the components) can refine them.
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { themeStore } from './features/theme/theme-store';
import { installChunkReload } from './lib/chunk-reload';
import { initI18n } from './lib/i18n';
import { initTradeCore } from '../shared-core/trade-core';

async function boot() {
  // A deploy that replaced the chunks this page knows reloads it instead of showing the error page.
  installChunkReload({
    target: window,
    storage: sessionStorage,
    reload: () => window.location.reload(),
    now: Date.now,
  });
  // The stored theme applies before the first paint, so a light-theme user never sees a dark flash.
  document.documentElement.dataset.theme = themeStore.theme;
  await initTradeCore();
  await initI18n();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void boot();
