import { startApp, launchBrowser, signUp } from './app-process';
import { proxySocket } from './trading-helpers';
const app = await startApp();
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
page.on('console', (m) => {
  if (m.type() === 'error' || m.type() === 'warning') console.log('CONSOLE', m.text());
});
page.on('response', (r) => {
  if (r.status() >= 400) console.log('HTTP', r.status(), r.url());
});
await proxySocket(page);
await page.goto(app.baseUrl);
const t0 = Date.now();
try {
  await signUp(page, `server-trader-${Date.now()}@example.com`, 'server-trader');
  console.log('signed up in', Date.now() - t0);
} catch (e) {
  console.log('FAIL', String(e).slice(0, 300));
  await page.screenshot({ path: '/tmp/diag18c.png' });
  console.log(app.output().slice(-3000));
}
await browser.close();
await app.stop();
