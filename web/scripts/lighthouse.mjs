// Lighthouse (mobile preset: simulated slow 4G, 4x slower CPU) on the public
// pages, against the real `salaula serve` (bin/salaula, built by `make build`)
// on a free port with a fresh data folder, in the installed Chromium
// (CHROME_PATH, default /usr/bin/chromium). Then a second visit of each page in
// the same browser profile, to weigh what a returning visitor downloads.
// Prints a Markdown table for docs/benchmarks.md. Run by `make bench`.
//
//   node scripts/lighthouse.mjs [--runs N] [/path ...]
//
// With several runs the run with the median performance score is reported
// (Lighthouse's own advice). Performance depends on the machine's CPU:
// Lighthouse's "benchmark index" of this machine is printed beside the table.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from '@playwright/test';
import { startServer } from '../e2e-node/server.mjs';

const PAGES = ['/', '/about', '/impact', '/contact', '/wardrobeclearance', '/sign_up', '/buyersignup', '/sellersignup'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
process.env.CHROME_PATH = chromePath;

const args = process.argv.slice(2);
let runs = 1;
const pages = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Math.max(1, Number(args[++i]) || 1);
  else pages.push(args[i]);
}
if (!pages.length) pages.push(...PAGES);

const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const score = (lhr, c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);

/** Audits that cost a category points, for the notes below the table. */
function findings(lhr) {
  const out = [];
  for (const c of CATEGORIES) {
    for (const ref of lhr.categories[c].auditRefs) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a.score !== null && a.score < 1 && c !== 'performance') out.push(`${c}: ${a.id}`);
    }
  }
  for (const id of ['uses-responsive-images', 'modern-image-formats', 'render-blocking-resources', 'unused-javascript']) {
    const a = lhr.audits[id];
    if (a && a.score !== null && a.score < 1 && a.details?.overallSavingsMs) out.push(`${id} (${Math.round(a.details.overallSavingsMs)} ms)`);
    else if (a && a.score !== null && a.score < 0.9) out.push(id);
  }
  return out;
}

/** Bytes that crossed the network on a second visit of path in a warm browser profile. */
async function secondVisit(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'networkidle' });
  // Let a service worker, if any, finish installing and take control.
  await page.waitForTimeout(1500);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    requests++;
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(500);
  await context.close();
  return { bytes, requests };
}

const server = await startServer({ SALAULA_RATE_FORMS: '1000/1m' });
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const rows = [];
try {
  for (const path of pages) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      const r = await lighthouse(`${server.url}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
      results.push(r.lhr);
    }
    results.sort((a, b) => score(a, 'performance') - score(b, 'performance'));
    const lhr = results[Math.floor(results.length / 2)];
    rows.push({ path, lhr });
    process.stderr.write(`${path}: performance ${results.map((l) => score(l, 'performance')).join(', ')}\n`);
  }
} finally {
  await chrome.kill();
}

const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const row of rows) row.second = await secondVisit(browser, `${server.url}${row.path}`);
} finally {
  await browser.close();
  await server.stop();
}

console.log(`Lighthouse ${rows[0].lhr.lighthouseVersion}, mobile preset, ${runs} run(s) per page (median shown), ${rows[0].lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? ''}, benchmark index ${Math.round(rows[0].lhr.environment.benchmarkIndex)}`);
console.log('');
console.log('| page | performance | accessibility | best practices | SEO | first paint | LCP | blocking time | bytes | second visit |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const { path, lhr, second } of rows) {
  const a = lhr.audits;
  console.log(`| ${path} | ${CATEGORIES.map((c) => score(lhr, c)).join(' | ')} | ${secs(a['first-contentful-paint'].numericValue)} | ${secs(a['largest-contentful-paint'].numericValue)} | ${Math.round(a['total-blocking-time'].numericValue)} ms | ${kib(a['total-byte-weight'].numericValue)} | ${(second.bytes / 1024).toFixed(1)} KiB (${second.requests} requests) |`);
}
console.log('');
for (const { path, lhr } of rows) {
  const f = findings(lhr);
  if (f.length) console.log(`- ${path}: ${f.join(', ')}`);
}
