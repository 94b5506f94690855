// Makes the PWA icons under public/icons/ from public/favicon.svg with headless Chromium (issue 41); run once,
// the PNGs are committed: node scripts/make-icons.mjs
import fs from 'node:fs';
import { chromium } from 'playwright-core';
const svg = fs.readFileSync('public/favicon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
const inner = svg.replace(/^<svg /, '<svg width="100%" height="100%" ');
async function render(file, size, html) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${html}</body></html>`);
  await page.screenshot({
    path: file,
    omitBackground: true,
    clip: { x: 0, y: 0, width: size, height: size },
  });
}
const box = (size, content, bg = 'transparent') =>
  `<div style="width:${size}px;height:${size}px;background:${bg};display:flex;align-items:center;justify-content:center">${content}</div>`;
for (const size of [192, 512]) await render(`public/icons/icon-${size}.png`, size, box(size, inner));
// Maskable: a full-bleed square of the icon's blue; the mark inside the 80 % safe circle.
const mark =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="60%" height="60%"><path d="M6 22l6-7 5 4 9-11" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>';
await render('public/icons/icon-maskable-512.png', 512, box(512, mark, '#1f6feb'));
// Apple touch icon: opaque (iOS fills transparency with black), 180 px.
await render('public/icons/apple-touch-icon.png', 180, box(180, mark, '#1f6feb'));
// Badge (Android status bar): white mark on transparent, 96 px.
const badge = mark.replace('#fff', '#ffffff').replace('width="60%" height="60%"', 'width="90%" height="90%"');
await render('public/icons/badge-96.png', 96, box(96, badge));
await browser.close();
