// Reports the JavaScript and CSS the home page sends on first load, raw and
// gzipped, and the largest image of the build. Run by `make bench`.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../internal/webapp/dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let raw = 0;
let gz = 0;
for (const ref of refs) {
  const body = readFileSync(join(dist, ref));
  raw += body.length;
  gz += gzipSync(body, { level: 9 }).length;
}
const images = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(png|jpe?g|webp|avif|svg|gif)$/i.test(name)) images.push({ p, size: statSync(p).size });
  }
}
walk(dist);
images.sort((a, b) => b.size - a.size);
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`home first load: ${refs.length} JS/CSS files, ${kb(raw)} raw, ${kb(gz)} gzip`);
for (const ref of refs) console.log(`  ${ref}`);
console.log(images.length ? `largest image: ${images[0].p.replace(dist, '')} ${kb(images[0].size)}` : 'largest image: none');
