// End-to-end harness: the app process and the browser (app-process.ts, shared with bench/), and what the
// tests add on top: one app and browser per test file, screenshots.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser, REPO, startApp, type RunningApp } from './app-process';

export * from './app-process';

/** Saves a screenshot under screenshots/ (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(REPO, 'screenshots', `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/**
 * Starts the app and a browser before a test file's tests and stops both after them; the returned object's
 * `app` and `browser` are set once beforeAll has run.
 */
export function setupE2e(env: Record<string, string> = {}): { app: RunningApp; browser: Browser } {
  const context = {} as { app: RunningApp; browser: Browser };
  beforeAll(async () => {
    context.app = await startApp(env);
    context.browser = await launchBrowser();
  });
  afterAll(async () => {
    await context.browser?.close();
    // E2E_SERVER_LOG_DIR keeps each file's server log for a look after the run.
    const logDir = process.env.E2E_SERVER_LOG_DIR;
    if (logDir && context.app) {
      fs.mkdirSync(logDir, { recursive: true });
      fs.writeFileSync(
        path.join(logDir, `${path.basename(expect.getState().testPath ?? 'e2e')}.log`),
        context.app.output(),
      );
    }
    await context.app?.stop();
  });
  return context;
}
