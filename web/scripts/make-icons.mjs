// Draws the app icons Android and iOS ask for (web app manifest, home screen)
// from Salaula's mark, as PNG, into public/icons/, with Debian's Chromium
// through Playwright. Run once after changing the mark: `node scripts/make-icons.mjs`.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const out = resolve(fileURLToPath(new URL('.', import.meta.url)), '../public/icons');
const S = 'M20 22c0-5 5-8 12-8s12 3 12 8h-7c0-2-2-3-5-3s-5 1-5 3c0 6 17 3 17 14 0 6-5 10-12 10s-13-4-13-10h7c0 3 2 5 6 5 3 0 5-1 5-4 0-6-17-3-17-15z';

/** The mark: rounded tile ("any"), or a full-bleed square with the S inside the maskable safe zone. */
function mark(kind) {
  if (kind === 'rounded') return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1b4332"/><path d="${S}" fill="#f4d35e"/></svg>`;
  const inset = kind === 'maskable' ? 0.6 : 0.85; // maskable icons keep their content in the middle 80% circle
  const t = (64 * (1 - inset)) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#1b4332"/><g transform="translate(${t} ${t}) scale(${inset})"><path d="${S}" fill="#f4d35e"/></g></svg>`;
}

const ICONS = [
  { name: 'icon-192.png', size: 192, kind: 'rounded' },
  { name: 'icon-512.png', size: 512, kind: 'rounded' },
  { name: 'icon-maskable-512.png', size: 512, kind: 'maskable' },
  { name: 'apple-touch-icon-180.png', size: 180, kind: 'square' },
];

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
for (const { name, size, kind } of ICONS) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${mark(kind).replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
  await page.locator('svg').screenshot({ path: join(out, name), omitBackground: true });
  console.log(`public/icons/${name}`);
}
await browser.close();
