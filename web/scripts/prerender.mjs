// Prerenders the content pages (src/prerender.tsx: PRERENDERED) into
// internal/webapp/dist/pages/<name>.html after `vite build`: index.html with
// the page's HTML behind the first second's skeleton, shown by CSS when the
// second ends (index.html's .pre rules), and the page's own styles inlined.
// The server answers a prerendered path with its file (internal/server/static.go).
// Run by `npm run build`.
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const web = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const dist = resolve(web, '../internal/webapp/dist');
const out = join(web, 'node_modules/.prerender');

await build({
  configFile: false,
  root: web,
  logLevel: 'warn',
  publicDir: false,
  plugins: [react()],
  build: { ssr: 'src/prerender.tsx', outDir: out, emptyOutDir: true },
});
const { PRERENDERED, render } = await import(pathToFileURL(join(out, 'prerender.js')).href);

const index = readFileSync(join(dist, 'index.html'), 'utf8');
// The start-up script's files and route table (vite.config.ts startScript): each page's own styles.
const start = /,f=(\[[^\]]*\]),r=(\{[^}]*\})/.exec(index);
if (!start) throw new Error('prerender: no route table in index.html (vite.config.ts startScript)');
const [files, routes] = [JSON.parse(start[1]), JSON.parse(start[2])];
const skeleton = /<div id="root">([\s\S]*?)<\/div>\s*<noscript>/.exec(index);
if (!skeleton) throw new Error('prerender: no skeleton in index.html');

rmSync(join(dist, 'pages'), { recursive: true, force: true });
mkdirSync(join(dist, 'pages'));
for (const path of PRERENDERED) {
  const html = await render(path);
  const css = (routes[path] ?? [])
    .map((i) => files[i])
    .filter((f) => f.endsWith('.css'))
    .map((f) => `<style>${readFileSync(join(dist, f), 'utf8').replace(/<\/style/gi, '<\\/style')}</style>`)
    .join('');
  const root = `<div id="root">${skeleton[1].replace('class="sk"', 'class="sk sk-pre"')}<div class="pre" inert>${html}</div>\n    </div>\n    <noscript>`;
  const page = index.replace(skeleton[0], root).replace('</head>', `${css}</head>`);
  const name = path === '/' ? 'index' : path.slice(1);
  writeFileSync(join(dist, 'pages', `${name}.html`), page);
  console.log(`prerendered ${path} -> pages/${name}.html (${(page.length / 1024).toFixed(1)} KiB)`);
}
// The app's modules may leave timers or channels open (they expect a browser page that never ends):
// the pages are written, so the build goes on.
process.exit(0);
