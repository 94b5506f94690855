// Boot: trade-core (pkg/) first, then translations, then render (DESIGN.md layout).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initI18n } from './lib/i18n';
import { initTradeCore } from './lib/trade-core';
import './styles.css';

async function boot() {
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
