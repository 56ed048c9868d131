// Writes, next to each text file of the built app (internal/webapp/dist), its
// brotli (`.br`, quality 11) and gzip (`.gz`, level 9) forms, each only when it
// is smaller than the file. The server embeds them and sends them as they are
// (checking at start that each decodes to its file), so a start no longer
// compresses the app, and brotli at 11 (the C encoder, seconds here once per
// build) is smaller than what the server could afford at every start.
// Run by `npm run build` after `vite build`.
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, '../../internal/webapp/dist');

// The extensions whose types the server compresses (compressible in internal/server/static.go).
const text = /\.(html|js|mjs|css|json|webmanifest|svg|xml|txt|map)$/;
const minBytes = 512;

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else yield p;
  }
}

let files = 0;
let raw = 0;
let br = 0;
let gz = 0;
// Forms from an earlier build go first; the rest are written afresh.
for (const p of [...walk(dist)]) if (p.endsWith('.br') || p.endsWith('.gz')) unlinkSync(p);
for (const p of [...walk(dist)]) {
  if (!text.test(p)) continue;
  const body = readFileSync(p);
  if (body.length <= minBytes) continue;
  const b = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const g = gzipSync(body, { level: 9 });
  if (b.length < body.length) writeFileSync(`${p}.br`, b);
  if (g.length < body.length) writeFileSync(`${p}.gz`, g);
  files++;
  raw += body.length;
  br += Math.min(b.length, body.length);
  gz += Math.min(g.length, body.length);
}
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`precompressed ${files} files: ${kib(raw)} raw, ${kib(br)} brotli, ${kib(gz)} gzip`);
