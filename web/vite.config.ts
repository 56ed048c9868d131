/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The service worker precaches only the offline page:
 * a first visit on paid mobile data costs the page and nothing more. The
 * code, styles and images of each page are cached when the page is visited
 * (the worker's runtime route below; what a page loaded before the worker
 * took charge is added by src/lib/serviceWorker.ts), so a page seen opens
 * offline, a page never seen shows the offline page.
 */
const PRECACHED = ['offline.html'];

/**
 * inlineEntryCss puts the entry's stylesheet (src/styles/site.css: the shell
 * and the content pages, about 4 KiB gzip) into index.html as a <style>, so it
 * costs no request and nothing blocks the first paint while it downloads.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'salaula-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="\/(assets\/[^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = bundle[file];
          // The file stays in the build: Vite's loader of lazy chunks may still ask for it (it then
          // applies the same rules twice, harmlessly); a first load never does.
          if (!asset || asset.type !== 'asset') return tag;
          return `<style>${String(asset.source).replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
  };
}

/**
 * startScript is the only script inline in index.html: in the frame after the
 * first paint (at once in a hidden tab) it fetches and starts the app's entry,
 * preloads the entry's chunks and the code and styles of the page the visitor
 * opened (routes: path -> indexes into files), so the page's own chunk arrives
 * with the entry instead of one round trip after it. A signed-in-only page
 * (signedIn) opened in a browser that keeps no session preloads the sign-in
 * page instead, where the app sends that visitor (src/app/routes.tsx
 * maySignIn says the same in the app). So the skeleton is always
 * the first paint: no script runs before it, and no script download competes
 * with it. The server allows this script by its hash, computed at start
 * (internal/server).
 */
function startScript(entry: string, preloads: string[], files: string[], routes: Record<string, number[]>, signedIn: string[]): string {
  return (
    `(function(){var e=${JSON.stringify(entry)},p=${JSON.stringify(preloads)},f=${JSON.stringify(files)},r=${JSON.stringify(routes)},a=${JSON.stringify(signedIn)};` +
    'function add(h){var l=document.createElement(\'link\');if(/\\.css$/.test(h)){l.rel=\'preload\';l.as=\'style\'}else{l.rel=\'modulepreload\';l.crossOrigin=\'\'}l.href=h;document.head.appendChild(l)}' +
    // kept: a session stored by supabase-js, or one arriving in the address (src/lib/supabase.ts mayHaveSession)
    'function kept(){try{for(var i=0;i<localStorage.length;i++)if(/^sb-.+-auth-token$/.test(localStorage.key(i)||\'\'))return true}catch(x){}return /(^|[#&])(access_token|error_description)=/.test(location.hash)}' +
    'function go(){p.forEach(add);var k=location.pathname.replace(/\\/+$/,\'\')||\'/\';if(a.indexOf(k)>=0&&!kept())k=\'/sign_up\';(r[k]||[]).forEach(function(i){add(f[i])});' +
    "var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=e;document.head.appendChild(s)}" +
    "if(document.visibilityState==='hidden')go();else requestAnimationFrame(function(){setTimeout(go,0)})})()"
  );
}

/**
 * routeFiles reads the route table (src/app/routes.tsx: `const X = lazyPage(() =>
 * import('...'))` and `{ path: '/x', page: X }`) and maps each exact path to
 * the built files its page needs beyond the entry: its chunk, the chunks that
 * chunk imports statically, and their styles. A route the build cannot match
 * stops the build, so the table and this reading cannot drift apart.
 */
function routeFiles(
  bundle: Record<string, { type: string }>,
  entryFiles: Set<string>,
): { files: string[]; routes: Record<string, number[]>; signedIn: string[] } {
  const appDir = fileURLToPath(new URL('./src/app', import.meta.url));
  const table = readFileSync(join(appDir, 'routes.tsx'), 'utf8');
  const modules = new Map<string, string>();
  for (const m of table.matchAll(/const (\w+) = lazyPage\(\(\) => import\('([^']+)'\)\);/g)) modules.set(m[1], resolve(appDir, m[2]));
  type Chunk = { type: 'chunk'; fileName: string; facadeModuleId: string | null; imports: string[]; viteMetadata?: { importedCss: Set<string> } };
  const chunks = Object.values(bundle).filter((c): c is Chunk => c.type === 'chunk');
  const byModule = new Map<string, Chunk>();
  for (const c of chunks) if (c.facadeModuleId) byModule.set(c.facadeModuleId.replace(/\.tsx?$/, ''), c);
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const files: string[] = [];
  const routes: Record<string, number[]> = {};
  const signedIn: string[] = [];
  for (const m of table.matchAll(/\{ path: '([^']+)', page: (\w+)(, signedIn: true)? \}/g)) {
    const [, path, page, onlySignedIn] = m;
    if (/[*:]/.test(path)) continue; // patterns (the console) load their own way
    if (onlySignedIn) signedIn.push(path);
    const module = modules.get(page);
    const chunk = module && byModule.get(module);
    if (!chunk) throw new Error(`routeFiles: no chunk for ${path} (${page}) in src/app/routes.tsx`);
    const need = new Set<string>();
    const todo = [chunk];
    while (todo.length) {
      const c = todo.pop()!;
      if (need.has(c.fileName) || entryFiles.has(c.fileName)) continue;
      need.add(c.fileName);
      for (const css of c.viteMetadata?.importedCss ?? []) need.add(css);
      for (const i of c.imports) if (byFile.has(i)) todo.push(byFile.get(i)!);
    }
    routes[path] = [...need].map((f) => {
      const url = `/${f}`;
      if (!files.includes(url)) files.push(url);
      return files.indexOf(url);
    });
  }
  if (!routes['/sign_up']) throw new Error('routeFiles: no /sign_up in src/app/routes.tsx');
  return { files, routes, signedIn };
}

/** startAfterFirstPaint swaps the entry's <script type=module> and its modulepreload links for startScript. */
function startAfterFirstPaint(): Plugin {
  return {
    name: 'salaula-start-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const entry = /<script type="module" crossorigin src="(\/assets\/index-[^"]+\.js)"><\/script>\s*/;
        const m = entry.exec(html);
        if (!m) throw new Error('startAfterFirstPaint: no entry script in index.html');
        const preloads: string[] = [];
        const out = html
          .replace(m[0], '')
          .replace(/<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\s*/g, (_, href: string) => {
            preloads.push(href);
            return '';
          });
        const entryFiles = new Set([m[1], ...preloads].map((h) => h.slice(1)));
        const { files, routes, signedIn } = routeFiles(ctx.bundle ?? {}, entryFiles);
        return out.replace('</body>', `<script>${startScript(m[1], preloads, files, routes, signedIn)}</script>\n  </body>`);
      },
    },
  };
}

// The app is built into the Go package that embeds it (internal/webapp/dist).
export default defineConfig({
  plugins: [
    react(),
    inlineEntryCss(),
    startAfterFirstPaint(),
    VitePWA({
      // Registered by src/lib/serviceWorker.ts after the page has loaded.
      injectRegister: false,
      // A new worker waits until no page uses the old one, so one page never
      // mixes two versions; pages themselves come from the network first, so
      // the next visit already gets the new version (see
      // docs/decisions/0100-new-versions-without-mixing.md).
      registerType: 'prompt',
      manifest: {
        name: 'Salaula: second-hand fashion, Lusaka',
        short_name: 'Salaula',
        description: 'Second-hand fashion from Lusaka, Zambia. Join the waitlist, sign up as a buyer or a seller.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#1b4332',
        background_color: '#fbf8f3',
        icons: [
          // Android fetches every icon listed on the first visit: the 192 px tile is the
          // installable icon, the maskable 512 px one the launcher's and the splash
          // screen's (a 512 px tile as well would cost 15 KiB more on every first visit).
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: PRECACHED,
        // Background Sync of the forms kept offline (public/sw-forms.js, src/lib/formQueue.ts).
        importScripts: ['sw-forms.js'],
        // Pages are not served from the precache: see the navigation route below.
        navigateFallback: null,
        cleanupOutdatedCaches: true,
        // The first worker takes charge of the open page at once (so the page
        // just opened is kept for offline use); a later version never does.
        clientsClaim: true,
        skipWaiting: false,
        runtimeCaching: [
          {
            // Pages: from the network, so a new version shows at once; a page
            // seen before opens from the cache when there is no connection (or
            // none within 6 s); a page never seen shows the offline page.
            // (The worker gets this function's source: it can use nothing from this file.)
            // API answers (/auth/v1, /functions/v1, /storage/v1, /admin/v1, /config.json)
            // match no route at all: they always come from the network, never a cache.
            urlPattern: ({ request, url }) => request.mode === 'navigate' && !/^\/(auth|functions|storage|admin)\/v1\//.test(url.pathname),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'pages',
              networkTimeoutSeconds: 6,
              expiration: { maxEntries: 60 },
              precacheFallback: { fallbackURL: 'offline.html' },
            },
          },
          {
            // Code and images, cached as pages use them: hashed names never
            // change, so the cached copy is always right.
            urlPattern: ({ url, sameOrigin }) => sameOrigin && /^\/(assets|images|icons)\//.test(url.pathname),
            handler: 'CacheFirst',
            options: { cacheName: 'assets', expiration: { maxEntries: 200, maxAgeSeconds: 60 * 24 * 3600 } },
          },
        ],
      },
    }),
  ],
  build: {
    outDir: '../internal/webapp/dist',
    emptyOutDir: true,
    sourcemap: false,
    assetsInlineLimit: 2048,
    rolldownOptions: {
      // supabase-js in a chunk of its own, named so (loaded only when needed; not precached).
      output: { codeSplitting: { groups: [{ name: 'supabase-js', test: /node_modules[\\/]@supabase[\\/]/ }] } },
    },
  },
  server: {
    // `npm run dev` talks to a `salaula serve` on :8080.
    proxy: {
      '/auth/v1': 'http://localhost:8080',
      '/functions/v1': 'http://localhost:8080',
      '/storage/v1': 'http://localhost:8080',
      '/config.json': 'http://localhost:8080',
      '/settings.json': 'http://localhost:8080',
      '/analytics/v1': 'http://localhost:8080',
      '/realtime/v1': { target: 'ws://localhost:8080', ws: true },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Form tests render whole MUI pages; on a busy 2-core machine one can take
    // several seconds, which is the machine, not the behaviour under test.
    testTimeout: 20_000,
    // Vitest's default workers (one file at a time on two cores): with a worker per core the
    // contact form's offline tests, which type while the kept form is restored, failed now and then.
  },
});
