// Lighthouse (mobile preset: simulated slow 4G, 4x slower CPU) on the public
// pages, against the real `salaula serve` (bin/salaula, built by `make build`)
// on a free port with a fresh data folder, in the installed Chromium
// (CHROME_PATH, default /usr/bin/chromium). Then a second visit of each page in
// the same browser profile, to weigh what a returning visitor downloads, and
// the time until the home page's hero text shows on a throttled phone profile
// (360 px wide, 400 kbps, 400 ms round trips, 4x slower CPU), cold.
// Prints a Markdown table for docs/benchmarks.md. Run by `make bench`.
//
//   node scripts/lighthouse.mjs [--runs N] [--baseline BIN] [--second-visit-only] [--json DIR] [/path ...]
//
// --baseline BIN runs a second salaula binary (a previous release's) beside
// this build, interleaved run by run (this, previous, previous, this, ...),
// and prints both rows for each page.
// --json DIR also writes each page's median Lighthouse report (with its trace's
// long tasks and the scripts they are attributed to) to DIR/<page>.json.
//
// With several runs the run with the median performance score is reported
// (Lighthouse's own advice). Performance depends on the machine's CPU:
// Lighthouse's "benchmark index" of this machine is printed beside the table.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from '@playwright/test';
import { createConnection, createServer } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { startServer } from '../e2e-node/server.mjs';

const PAGES = ['/', '/about', '/impact', '/contact', '/wardrobeclearance', '/sign_up', '/buyersignup', '/sellersignup', '/account', '/admin'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
process.env.CHROME_PATH = chromePath;

const args = process.argv.slice(2);
let runs = 3;
let lighthouseToo = true;
let jsonDir = null;
let baseline = null;
const pages = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Math.max(1, Number(args[++i]) || 1);
  else if (args[i] === '--second-visit-only') lighthouseToo = false;
  else if (args[i] === '--json') jsonDir = args[++i];
  else if (args[i] === '--baseline') baseline = args[++i];
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

/**
 * countingRelay forwards a local port to the server and counts the bytes the
 * server sends (bodies and headers), whoever asks: the page or its service
 * worker (whose requests the page's own DevTools session does not see).
 */
async function countingRelay(target) {
  const relay = { bytes: 0, requests: 0 };
  const server = createServer((client) => {
    const upstream = createConnection(target, '127.0.0.1');
    upstream.on('data', (b) => (relay.bytes += b.length));
    client.on('data', (b) => (relay.requests += (b.toString('latin1').match(/^(GET|POST|HEAD|PUT) /gm) ?? []).length));
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.pipe(upstream).pipe(client);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  relay.url = `http://127.0.0.1:${server.address().port}`;
  relay.close = () => new Promise((ok) => server.close(ok));
  return relay;
}

/** Bytes the server sent on a second visit of path in a warm browser profile (its own origin: a fresh service worker). */
async function secondVisit(browser, port, path) {
  const relay = await countingRelay(port);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(relay.url + path, { waitUntil: 'networkidle' });
  // Let the service worker finish installing (precaching) before the second visit.
  await page.evaluate(() => navigator.serviceWorker?.ready);
  await page.waitForTimeout(3000);
  relay.bytes = 0;
  relay.requests = 0;
  await page.goto(relay.url + path, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1000);
  const { bytes, requests } = relay;
  await context.close();
  await relay.close();
  return { bytes, requests };
}

/**
 * heroTime opens / cold in a fresh context on the throttled phone profile and
 * returns the milliseconds from navigation start until the hero's heading
 * shows its words (the first words a visitor reads).
 */
async function heroTime(browser, url) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(url + '/', { waitUntil: 'commit' });
  const ms = await page.waitForFunction(() => { const h = document.getElementById('hero-title'); return h?.textContent && getComputedStyle(h).visibility === 'visible' ? performance.now() : false; }, null, { polling: 'raf', timeout: 60_000 });
  const value = await ms.jsonValue();
  await context.close();
  return value;
}

const builds = [{ name: 'this build', server: await startServer({ SALAULA_RATE_FORMS: '1000/1m' }) }];
if (baseline) builds.push({ name: 'previous', server: await startServer({ SALAULA_RATE_FORMS: '1000/1m' }, baseline) });
const chrome = !lighthouseToo ? null : await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
try {
  for (const path of pages) {
    const results = builds.map(() => []);
    if (lighthouseToo) {
      for (let i = 0; i < runs; i++) {
        // Interleaved, the order flipped every round, so neither build always goes first.
        const order = builds.map((_, b) => b);
        if (i % 2) order.reverse();
        for (const b of order) {
          const r = await lighthouse(`${builds[b].server.url}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
          results[b].push(r.lhr);
        }
      }
    }
    builds.forEach((build, b) => {
      if (!lighthouseToo) return rows.push({ path, build: build.name, b });
      const all = results[b].sort((x, y) => score(x, 'performance') - score(y, 'performance'));
      const lhr = all[Math.floor(all.length / 2)];
      rows.push({ path, build: build.name, b, lhr, scores: all.map((l) => score(l, 'performance')), tbts: all.map((l) => Math.round(l.audits['total-blocking-time'].numericValue)) });
      if (jsonDir) {
        mkdirSync(jsonDir, { recursive: true });
        writeFileSync(`${jsonDir}/${b ? 'previous' : 'this'}${path.replace(/\W+/g, '_') || '_'}.json`, JSON.stringify(lhr));
      }
      process.stderr.write(`${path} (${build.name}): performance ${all.map((l) => score(l, 'performance')).join(', ')}\n`);
    });
  }
} finally {
  await chrome?.kill();
}

const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
const heroes = builds.map(() => []);
try {
  for (const row of rows) row.second = await secondVisit(browser, Number(new URL(builds[row.b].server.url).port), row.path);
  for (let i = 0; i < runs; i++) {
    const order = builds.map((_, b) => b);
    if (i % 2) order.reverse();
    for (const b of order) heroes[b].push(await heroTime(browser, builds[b].server.url));
  }
} finally {
  await browser.close();
  for (const build of builds) await build.server.stop();
}

console.log('Hero text of / on a 360 px phone profile (400 kbps, 400 ms round trips, 4x slower CPU), cold, median of ' + runs + ':');
builds.forEach((build, b) => console.log(`- ${build.name}: ${secs(median(heroes[b]))} (${heroes[b].map((ms) => secs(ms)).join(', ')})`));
console.log('');
if (!lighthouseToo) {
  console.log('| page | build | second visit |');
  console.log('|---|---|---|');
  for (const { path, build, second } of rows) console.log(`| ${path} | ${build} | ${(second.bytes / 1024).toFixed(1)} KiB (${second.requests} requests) |`);
  process.exit(0);
}
console.log(`Lighthouse ${rows[0].lhr.lighthouseVersion}, mobile preset, ${runs} run(s) per page and build, interleaved (median shown, every run's performance and blocking time in brackets), ${rows[0].lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? ''}, benchmark index ${Math.round(rows[0].lhr.environment.benchmarkIndex)}`);
console.log('');
console.log('| page | build | performance | accessibility | best practices | SEO | first paint | LCP | blocking time | bytes | second visit |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const { path, build, lhr, scores, tbts, second } of rows) {
  const a = lhr.audits;
  const [perf, ...rest] = CATEGORIES.map((c) => score(lhr, c));
  console.log(`| ${path} | ${build} | ${perf} (${scores.join(', ')}) | ${rest.join(' | ')} | ${secs(a['first-contentful-paint'].numericValue)} | ${secs(a['largest-contentful-paint'].numericValue)} | ${Math.round(a['total-blocking-time'].numericValue)} ms (${tbts.join(', ')}) | ${kib(a['total-byte-weight'].numericValue)} | ${(second.bytes / 1024).toFixed(1)} KiB (${second.requests} requests) |`);
}
console.log('');
for (const { path, build, lhr } of rows) {
  const f = findings(lhr);
  if (f.length) console.log(`- ${path} (${build}): ${f.join(', ')}`);
}
