// Reports what the home page sends on first load: the entry's JavaScript and
// CSS (index.html's scripts, its start-up script's list, links, and every
// chunk they import statically), plus the lazy home route chunk and its own
// static imports; raw bytes, gzip and the brotli the server sends. Also the images the home page requests
// and the largest image of the build. Run by `make bench` after `make build`.
// `node scripts/first-load-weight.mjs SignInPage` weighs another route the
// same way: the entry plus that page's lazy chunk (named as in the build).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, dirname, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, '../../internal/webapp/dist');
const assets = join(dist, 'assets');
if (!existsSync(join(dist, 'index.html'))) {
  console.error('No build found: run `make build` first.');
  process.exit(1);
}
const html = readFileSync(join(dist, 'index.html'), 'utf8');

/** Static imports of a built JS chunk: `import ... from "./x.js"`, `import "./x.js"`. */
function staticImports(file) {
  const code = readFileSync(join(dist, file), 'utf8');
  const out = new Set();
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.(?:js|css))["']/g)) {
    out.add(posix.join(posix.dirname(file), m[1]));
  }
  return [...out];
}

function closure(starts) {
  const seen = new Set();
  const todo = [...starts];
  while (todo.length) {
    const f = todo.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    if (f.endsWith('.js')) todo.push(...staticImports(f));
  }
  return seen;
}

// The entry and its preloads: the inline start-up script's entry (e) and list (p) (vite.config.ts), and
// any stylesheet link; the route table after them (r) is each page's own part, weighed below.
const start = /var e=("[^"]+"),p=(\[[^\]]*\])/.exec(html);
if (!start) {
  console.error('No start-up script in index.html (vite.config.ts startScript).');
  process.exit(1);
}
const entry = [JSON.parse(start[1]), ...JSON.parse(start[2]), ...[...html.matchAll(/<link[^>]+href="\/(assets\/[^"]+\.css)"/g)].map((m) => m[1])].map(
  (h) => h.replace(/^\//, ''),
);
const shell = closure(entry);
const page = process.argv[2] ?? 'HomePage';
const homeChunk = readdirSync(assets).find((n) => new RegExp(`^${page}-[\\w-]+\\.js$`).test(n));
if (!homeChunk) {
  console.error(`No ${page} chunk in the build.`);
  process.exit(1);
}
const home = closure([`assets/${homeChunk}`]);
// Vite also emits the CSS of a lazy chunk as assets/HomePage-*.css when there is any.
for (const n of readdirSync(assets)) if (new RegExp(`^${page}-[\\w-]+\\.css$`).test(n)) home.add(`assets/${n}`);
const all = new Set([...shell, ...home]);

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
function weigh(files) {
  const t = { js: { raw: 0, gz: 0, br: 0, n: 0 }, css: { raw: 0, gz: 0, br: 0, n: 0 } };
  for (const f of files) {
    const body = readFileSync(join(dist, f));
    const k = f.endsWith('.css') ? 'css' : 'js';
    t[k].raw += body.length;
    t[k].gz += gzipSync(body, { level: 9 }).length;
    // What a browser asking for brotli gets: the build's .br (scripts/precompress.mjs), else the file.
    const br = join(dist, `${f}.br`);
    t[k].br += existsSync(br) ? statSync(br).size : body.length;
    t[k].n++;
  }
  return t;
}
function line(label, t) {
  return `${label.padEnd(28)} JS ${String(t.js.n).padStart(2)} files ${kb(t.js.raw).padStart(10)} raw ${kb(t.js.gz).padStart(10)} gzip ${kb(t.js.br).padStart(10)} br | CSS ${t.css.n} files ${kb(t.css.raw)} raw ${kb(t.css.gz)} gzip ${kb(t.css.br)} br`;
}

console.log(`${page} first load, from the build in internal/webapp/dist:`);
console.log(line('  entry (index.html)', weigh(shell)));
console.log(line('  home route (lazy)', weigh([...home].filter((f) => !shell.has(f)))));
console.log(line('  total', weigh(all)));
for (const f of [...all].sort()) {
  const size = statSync(join(dist, f)).size;
  console.log(`    ${f.padEnd(60)} ${kb(size).padStart(10)}${shell.has(f) ? '' : '  (home route)'}`);
}

// Images the home page asks for: /images/... named in the home route's code.
const homeImages = new Set();
for (const f of home) {
  if (!f.endsWith('.js')) continue;
  const code = readFileSync(join(dist, f), 'utf8');
  for (const m of code.matchAll(/\/images\/[\w.-]+\.(?:svg|webp|png|jpe?g|avif)/g)) homeImages.add(m[0]);
  for (const m of code.matchAll(/["'`](brand-[\w-]+)["'`]/g)) homeImages.add(`/images/${m[1]}-*.webp`);
}
console.log(`  images named by the home route: ${[...homeImages].sort().join(', ') || 'none'}`);

const images = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(png|jpe?g|webp|avif|svg|gif)$/i.test(name)) images.push({ p: p.slice(dist.length), size: statSync(p).size });
  }
})(dist);
images.sort((a, b) => b.size - a.size);
console.log(images.length ? `Largest image in the build: ${images[0].p} ${kb(images[0].size)} (${images.length} images, ${kb(images.reduce((s, i) => s + i.size, 0))} in all)` : 'Largest image: none');

// The forms' code must not be part of the home page's first load.
const forms = page !== 'HomePage' ? [] : [...all].filter((f) => /(Contact|Waitlist|WardrobeClearance|SignIn|Signup|Onboarding|SelectRole)/i.test(f));
if (forms.length) {
  console.error(`The home page's first load includes form code: ${forms.join(', ')}`);
  process.exit(1);
}
console.log('No form code on the home page\'s first load.');
