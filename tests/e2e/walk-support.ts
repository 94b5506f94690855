// Helpers of the screen walk (issue 9 item 1, tests/e2e/walk.test.ts): in-app navigation that keeps the
// in-memory PIN, the theme, language and sidebar toggles, waiting for a screen to settle, axe-core in the page,
// and a few layout hints (overflow, English words left in the Ukrainian screens) for a person to review.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page, WebSocketRoute } from 'playwright-core';
import type { AxeResults, ImpactValue } from 'axe-core';
import { expect } from 'vitest';
import type { Signal } from '../../contracts';

const repo = path.resolve(import.meta.dirname, '../..');
const AXE_SCRIPT = path.join(repo, 'node_modules/axe-core/axe.min.js');
export const WALK_DIR = path.join(repo, 'screenshots', 'walk');

/** A part of the matrix while working on one screen: WALK_LANGS=ua WALK_THEMES=light WALK_SIZES=375x812 … */
function pick<T>(all: readonly T[], variable: string, name: (item: T) => string = String): T[] {
  const wanted = process.env[variable]?.split(',').filter(Boolean);
  return wanted ? all.filter((item) => wanted.includes(name(item))) : [...all];
}

export const LANGUAGES = pick(['en', 'ua'] as const, 'WALK_LANGS');
export type Language = 'en' | 'ua';
export const THEMES = pick(['dark', 'light'] as const, 'WALK_THEMES');
export type ThemeName = 'dark' | 'light';
export interface Size {
  name: string;
  width: number;
  height: number;
}
export const SIZES = pick<Size>(
  [
    { name: '1440x900', width: 1440, height: 900 },
    { name: '375x812', width: 375, height: 812 },
  ],
  'WALK_SIZES',
  (size) => size.name,
);
/** WALK_SCREENS=dashboard,analysis walks only these screens. */
export const SCREEN_FILTER = process.env.WALK_SCREENS?.split(',').filter(Boolean);
/** WALK_FULL_PAGE=1 also saves the whole height of each page under full/ (slower; for a person to review). */
export const FULL_PAGE = process.env.WALK_FULL_PAGE === '1';

const THEME_ATTRIBUTE: Record<ThemeName, string> = { dark: 'app_dark_theme', light: 'app_light_theme' };
/** The app's 'ua' is Ukrainian, whose HTML lang is 'uk' (src/lib/i18n.ts htmlLang). */
const HTML_LANG: Record<Language, string> = { en: 'en', ua: 'uk' };

// ------------------------------------------------------------------------------------------------ navigation

/**
 * Goes to `pathname` inside the single-page app, the way a link does (history.pushState and a popstate that
 * the router listens to): no reload, so a PIN kept only in memory stays entered.
 */
export async function goInApp(page: Page, pathname: string): Promise<void> {
  await page.evaluate((target) => {
    const state = window.history.state as { idx?: number } | null;
    const idx = (state?.idx ?? 0) + 1;
    window.history.pushState({ usr: null, key: `walk${idx}`, idx }, '', target);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, pathname);
  await expect.poll(() => new URL(page.url()).pathname).toBe(pathname);
  // The page scrolls inside <main>, which keeps its position across routes: start each screen at its top.
  await page.evaluate(() => document.getElementById('main')?.scrollTo(0, 0));
}

async function isSidebarOpen(page: Page): Promise<boolean> {
  return (await page.getByTestId('hamburger').getAttribute('aria-expanded')) === 'true';
}

/** Opens or closes the sidebar with the hamburger (an overlay at 900 px and below). */
export async function setSidebar(page: Page, open: boolean): Promise<void> {
  if ((await isSidebarOpen(page)) !== open) await page.getByTestId('hamburger').click();
  await page.getByTestId('sidebar').waitFor({ state: open ? 'visible' : 'hidden' });
}

/** The sidebar state a person sees by default at this size: open on a desktop, closed on a phone. */
export async function defaultSidebar(page: Page, size: Size): Promise<void> {
  await setSidebar(page, size.width > 900);
}

/** Sets theme and language with the toggles at the sidebar bottom, then puts the sidebar back as it was. */
export async function setLook(page: Page, language: Language, theme: ThemeName): Promise<void> {
  const wasOpen = await isSidebarOpen(page);
  const currentTheme = () => page.evaluate(() => document.documentElement.dataset.theme);
  const currentLang = () => page.evaluate(() => document.documentElement.lang);
  if ((await currentTheme()) !== THEME_ATTRIBUTE[theme] || (await currentLang()) !== HTML_LANG[language]) {
    await setSidebar(page, true);
    if ((await currentTheme()) !== THEME_ATTRIBUTE[theme]) await page.getByTestId('theme-toggle').click();
    if ((await currentLang()) !== HTML_LANG[language]) await page.getByTestId(`language-${language}`).click();
    await expect.poll(currentTheme).toBe(THEME_ATTRIBUTE[theme]);
    await expect.poll(currentLang).toBe(HTML_LANG[language]);
    await setSidebar(page, wasOpen);
  }
}

// ---------------------------------------------------------------------------------------------------- settle

/**
 * Waits for a screen: its marker visible, then (up to `settleMs`) no spinner shown and no finite CSS animation
 * or transition running (the modal fade, the theme transition), then `pauseMs` more for what draws with
 * JavaScript springs (the nivo charts). Returns what did not settle, for the report.
 */
export async function settle(
  page: Page,
  marker: Locator,
  { pauseMs = 50, settleMs = 15_000 }: { pauseMs?: number; settleMs?: number } = {},
): Promise<string[]> {
  await marker.first().waitFor({ state: 'visible', timeout: 20_000 });
  const busy = () =>
    page.evaluate(() => {
      const reasons: string[] = [];
      const loaders = [...document.querySelectorAll('.loader')].filter(
        (element) => (element as HTMLElement).checkVisibility?.() && !element.closest('.app-footer'),
      );
      if (loaders.length > 0) reasons.push('a loader was still shown');
      const running = document
        .getAnimations()
        .some(
          (animation) =>
            animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity,
        );
      if (running) reasons.push('an animation was still running');
      return reasons;
    });
  const deadline = Date.now() + settleMs;
  let reasons = await busy();
  while (reasons.length > 0 && Date.now() < deadline) {
    await page.waitForTimeout(50);
    reasons = await busy();
  }
  if (pauseMs > 0) await page.waitForTimeout(pauseMs);
  return reasons;
}

// ------------------------------------------------------------------------------------------------------- axe

export interface AxeFinding {
  screen: string;
  id: string;
  impact: ImpactValue | undefined;
  help: string;
  targets: string[];
}

const BLOCKING: ReadonlySet<string> = new Set(['serious', 'critical']);

let axeScript: string | undefined;
const axeSource = () => (axeScript ??= fs.readFileSync(AXE_SCRIPT, 'utf8'));

/** Runs axe-core over the whole document and returns its serious and critical violations. */
export async function runAxe(page: Page, screen: string): Promise<AxeFinding[]> {
  // Evaluated through the DevTools protocol: the page's CSP refuses an inline <script> (addScriptTag).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const results = await page.evaluate(() => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResults> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .map((violation) => ({
      screen,
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 8).map((node) => node.target.join(' ')),
    }));
}

/** One line per violation: rule id, impact, the screen, the first target selectors. */
export function formatFindings(findings: AxeFinding[]): string {
  return findings
    .map((f) => `${f.impact} ${f.id} on ${f.screen} (${f.help}): ${f.targets.join(' | ')}`)
    .join('\n');
}

// ---------------------------------------------------------------------------------------------------- hints

export interface LayoutHints {
  /** The page is wider than the window, or an element sticks out of the viewport to the right. */
  overflow: string[];
  /** Visible words in Latin letters on a Ukrainian screen (to look at: symbols and names are expected). */
  latinWords: string[];
}

/**
 * Words that are the same in both languages: the brand, symbols and codes, units, exchange and neuron names,
 * cipher names, the language codes, the trader's nickname and e-mail, and the Latin head of a Ukrainian
 * compound ('PIN-код', 'API-ключ').
 */
const LATIN_ALLOWED =
  /^(Signaldesk|Binance|Paper|Futures|Demo|[A-Z0-9]{2,}|[A-Z]|[a-z]|ua|en|[a-z]+(-[a-z]+)+|Trend-momentum|Logistic-online|Argon2id|AES-256-GCM\.?|AES-GCM|HMAC-SHA256|[A-Za-z0-9]+-|[a-z0-9._%+-]+@[a-z0-9.-]+)$/;

/** Collects overflow and untranslated-looking text on the current screen. */
export async function layoutHints(page: Page, language: Language): Promise<LayoutHints> {
  const raw = await page.evaluate(() => {
    const overflow: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) {
      overflow.push(`document ${document.documentElement.scrollWidth}px > ${width}px`);
    }
    const describe = (element: Element) =>
      element.tagName.toLowerCase() +
      (element.id ? `#${element.id}` : '') +
      (element.getAttribute('data-testid') ? `[data-testid=${element.getAttribute('data-testid')}]` : '') +
      (typeof element.className === 'string' && element.className
        ? `.${element.className.trim().split(/\s+/).join('.')}`
        : '');
    for (const element of document.querySelectorAll('body *')) {
      const html = element as HTMLElement;
      if (!html.checkVisibility?.()) continue;
      const rect = html.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      // Something drawn past the right edge of the window (not inside a horizontally scrolling parent).
      if (rect.right > width + 1 && rect.left < width) {
        let parent = html.parentElement;
        let scrolls = false;
        while (parent) {
          const style = getComputedStyle(parent);
          if (
            /(auto|scroll|hidden)/.test(style.overflowX) &&
            parent.getBoundingClientRect().right <= width + 1
          ) {
            scrolls = true;
            break;
          }
          parent = parent.parentElement;
        }
        if (!scrolls) overflow.push(`${describe(html)} right=${Math.round(rect.right)}`);
      }
      // Text cut off by its own box (ellipsis or clipping) in a leaf element.
      if (
        html.children.length === 0 &&
        rect.width > 1 &&
        html.textContent?.trim() &&
        html.scrollWidth > html.clientWidth + 1 &&
        /(hidden|clip)/.test(getComputedStyle(html).overflowX) &&
        getComputedStyle(html).textOverflow !== 'ellipsis'
      ) {
        overflow.push(`${describe(html)} clipped "${html.textContent.trim().slice(0, 40)}"`);
      }
    }
    const words: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !parent.checkVisibility?.() || parent.closest('script,style,svg,[lang="en"]')) continue;
      for (const word of node.textContent?.match(/[A-Za-z][A-Za-z0-9@._%+-]*/g) ?? []) words.push(word);
    }
    return { overflow: [...new Set(overflow)].slice(0, 20), words };
  });
  const latinWords =
    language === 'ua' ? [...new Set(raw.words.filter((word) => !LATIN_ALLOWED.test(word)))].slice(0, 40) : [];
  return { overflow: raw.overflow, latinWords };
}

// ------------------------------------------------------------------------------------------------ recording

export function screenshotFile(mode: string, name: string): string {
  const file = path.join(WALK_DIR, mode, `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/**
 * The whole height of the page: for the shot only, <main> and its parents grow to their content instead of
 * scrolling inside the window.
 */
export async function fullPageScreenshot(page: Page, file: string): Promise<void> {
  const style = await page.addStyleTag({
    content:
      'html, body, #root, .app-shell, .app-column, .app-main { height: auto !important; max-height: none !important;' +
      ' overflow: visible !important; } .app-shell { min-height: 100vh; }',
  });
  await page.waitForTimeout(100);
  await page.screenshot({ path: file, fullPage: true });
  await style.evaluate((element) => (element as HTMLElement).remove());
}

/** Writes what the walk saw (hints, skipped screens, timings) next to the screenshots. */
export function writeReport(mode: string, report: object): void {
  const file = path.join(WALK_DIR, mode, 'report.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}

// ----------------------------------------------------------------------------------------- the trader set-up

const paperCard = (page: Page) =>
  page.locator('[data-testid="platform-card"][data-platform-name="Paper Futures"]');

/**
 * On /trade_preferences in English: optionally switches to server mode (saved after the 2 s debounce), sets
 * a PIN and creates a paper-exchange trade token with the 'Create paper account' button, then waits for a
 * balance above 0 (the steps of accounts-flows.test.ts).
 */
export async function setUpPaperTrader(page: Page, mode: 'client' | 'server'): Promise<void> {
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  const card = paperCard(page);
  await card.waitFor({ timeout: 15_000 });
  if (mode === 'server') {
    await page.getByRole('button', { name: 'Increase Trade side' }).click();
    await page
      .getByTestId('notification')
      .filter({ hasText: 'Update Trade Preferences Success' })
      .first()
      .waitFor({ timeout: 15_000 });
  }
  await card.getByRole('button', { name: 'Enter PIN Code' }).click();
  await card.getByPlaceholder('Pin Code').fill('12345');
  await card.getByRole('button', { name: 'Save' }).click();
  await card.getByTestId('pin-mask').waitFor();
  await card.getByRole('button', { name: 'Create paper account' }).click();
  await expect.poll(() => card.getByTestId('api-key-input').inputValue(), { timeout: 15_000 }).not.toBe('');
  await card.getByRole('button', { name: 'Save' }).click();
  await card.getByTestId('trade-token-details').waitFor({ timeout: 15_000 });
  await expect
    .poll(() => card.getByTestId('trade-token-status').innerText(), { timeout: 15_000 })
    .toBe('AVAILABLE');
  const balance = page.getByTestId('balance-widget');
  await expect
    .poll(async () => Number((await balance.innerText()).replace(/[^0-9.]/g, '')), { timeout: 20_000 })
    .toBeGreaterThan(0);
}

/** Waits (up to `ms`) until the public statistics have a point of the last day, so the dashboard has charts. */
export async function waitForStatistics(baseUrl: string, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${baseUrl}/api/public/get_statistic_trade_by_day/`);
      const body = (await response.json()) as { result?: { statistic_trade_by_day_list?: unknown[] } };
      if ((body.result?.statistic_trade_by_day_list?.length ?? 0) > 0) return true;
    } catch {
      // not ready yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return false;
}

// ------------------------------------------------------------------------------------- signals and trades

/** The Signaldesk API as the page calls it (with the access token the SPA keeps). */
async function apiGet<T>(page: Page, apiPath: string): Promise<T> {
  return page.evaluate(async (url) => {
    const response = await fetch(url, {
      headers: { Authorization: localStorage.getItem('access_token') ?? '' },
    });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return (await response.json()).result;
  }, `/api/${apiPath}`) as Promise<T>;
}

export interface SignalFeed {
  /** Re-sends a stored signal to the page as a fresh signal_from_core frame (its card counts down from 99). */
  deliver: (signal: Signal) => void;
}

/**
 * Proxies the page's websocket (call before the app loads) so the walk can show signal cards without waiting
 * for the engine's next signal: a stored signal of the running engine, re-sent with signal_created_at = now.
 */
export async function proxySignalFeed(page: Page): Promise<SignalFeed> {
  const state: { route?: WebSocketRoute } = {};
  await page.routeWebSocket(/\/api\/ws_core\//, (route) => {
    const server = route.connectToServer();
    state.route = route;
    server.onMessage((message) => route.send(message));
    route.onMessage((message) => server.send(message));
  });
  return {
    deliver: (signal) => {
      if (!state.route) throw new Error('the page has no websocket yet');
      const fresh = { ...signal, signal_created_at: new Date().toISOString() };
      state.route.send(
        JSON.stringify({
          event: 'signal_from_core',
          message: { signal_by_uuid: { [fresh.signal_uuid]: fresh }, trend_moment: fresh.trend_moment },
        }),
      );
    },
  };
}

/**
 * Stored signals of the engine for this trader on the Paper Futures platform, one per symbol, never BTCUSDT
 * (an order of the default 10 USDT × 10 is below its minimum notional on the paper exchange).
 */
export async function storedSignals(page: Page, waitMs = 30_000): Promise<Signal[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { signal_list } = await apiGet<{ signal_list: Signal[] }>(
      page,
      'signal/get_recent_signal_list/?limit=100',
    );
    const byPair = new Map<string, Signal>();
    for (const signal of signal_list) {
      if (signal.symbol.symbol_pair === 'BTCUSDT' || signal.platform.platform_name !== 'Paper Futures')
        continue;
      if (!byPair.has(signal.symbol.symbol_pair)) byPair.set(signal.symbol.symbol_pair, signal);
    }
    const preferred = [...byPair.values()].sort(
      (a, b) => Number(b.symbol.symbol_pair === 'ETHUSDT') - Number(a.symbol.symbol_pair === 'ETHUSDT'),
    );
    if (preferred.length >= 3 || Date.now() > deadline) return preferred;
    await page.waitForTimeout(2_000);
  }
}

const signalCard = (page: Page, signal: Signal) =>
  page.locator(`[data-testid="signal-card"][data-signal-uuid="${signal.signal_uuid}"]`);

/** On /trading: delivers the signal, trades it from its card and waits for the open-trade row. */
export async function openTradeFromSignal(page: Page, feed: SignalFeed, signal: Signal): Promise<void> {
  const rows = await page.getByTestId('trade-row').count();
  feed.deliver(signal);
  const card = signalCard(page, signal);
  await card.getByTestId('signal-trade').click({ timeout: 15_000 });
  await card.waitFor({ state: 'detached', timeout: 30_000 });
  await expect.poll(() => page.getByTestId('trade-row').count(), { timeout: 30_000 }).toBeGreaterThan(rows);
}

/** On /trading: closes the last open-trade row by hand (yes to Close's question, issue 39) and waits for it to go. */
export async function closeLastTrade(page: Page): Promise<void> {
  const rows = await page.getByTestId('trade-row').count();
  await page.getByTestId('trade-row').last().getByTestId('trade-close').click({ timeout: 15_000 });
  await page.getByTestId('close-confirm').click({ timeout: 15_000 });
  await expect.poll(() => page.getByTestId('trade-row').count(), { timeout: 30_000 }).toBeLessThan(rows);
}
