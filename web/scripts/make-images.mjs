// Draws Salaula's own artwork (no photos, no third-party logos) and writes it
// to public/images/: flat SVG illustrations as they are, and the brand tiles
// and team portraits rasterised to WebP at several widths (for srcset) with a
// tiny placeholder each, using Debian's Chromium through Playwright.
// Run once after changing a drawing: `node scripts/make-images.mjs`.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const out = resolve(fileURLToPath(new URL('.', import.meta.url)), '../public/images');

const GARMENTS = {
  tee: 'M62 46 86 34q14 12 28 0l24 12 30 30-20 18-10-8v88H62V86l-10 8-20-18z',
  jumper: 'M62 46 86 34q14 12 28 0l24 12 22 40 12 74h-22l-12-66v100H62V94l-12 66H28l12-74z',
  dress: 'M84 30h32l-2 30 40 116H46l40-116zM84 30l-6-14M116 30l6-14',
  jeans: 'M64 30h72l10 148h-38l-8-96-8 96H54z',
  jacket: 'M60 40 84 30l16 22 16-22 24 10 26 48-18 10-8-14v92H60V74l-8 14-18-10z',
  sneaker: 'M26 150v-38q34 2 54-24l30 16q34 14 62 18 12 4 8 28H26z',
};
const DETAILS = {
  tee: '<path d="M86 34q14 16 28 0" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="3"/>',
  jumper: '<path d="M62 150h76M86 34q14 16 28 0" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="3"/>',
  dress: '<path d="M78 96h44M70 124h60M62 152h76" stroke="#fff" stroke-opacity=".55" stroke-width="5" stroke-dasharray="8 6"/>',
  jeans: '<path d="M64 46h72M100 30v52" stroke="#fff" stroke-opacity=".5" stroke-width="3" fill="none"/>',
  jacket: '<path d="M100 52v120M90 80h-12M90 110h-12" stroke="#fff" stroke-opacity=".6" stroke-width="3"/>',
  sneaker: '<path d="M26 142h154M70 104l10 12M84 98l10 12" stroke="#fff" stroke-opacity=".7" stroke-width="4"/>',
};

function garment(kind, fill, x = 0, y = 0, scale = 1) {
  return `<g transform="translate(${x} ${y}) scale(${scale})"><path d="${GARMENTS[kind]}" fill="${fill}" stroke="#00000022" stroke-width="2" stroke-linejoin="round"/>${DETAILS[kind]}</g>`;
}

/** Brand tiles: invented Zambian-sounding labels, each with its own garment. */
const BRANDS = [
  ['zambezi-denim', 'jeans', '#dbe7f3', '#2f5d8a'],
  ['copperbelt-sport', 'sneaker', '#f6e0cf', '#9c4221'],
  ['chitenge-co', 'dress', '#fbeec1', '#b5651d'],
  ['kafue-classics', 'jacket', '#e1ebdc', '#1b4332'],
  ['mwezi-knits', 'jumper', '#efe1ee', '#7a3b69'],
  ['lusaka-street', 'tee', '#e7e4df', '#33302c'],
];

function brandTile(kind, bg, fill) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200">
<rect width="200" height="200" fill="${bg}"/><circle cx="100" cy="104" r="74" fill="#fff" fill-opacity=".55"/>
${garment(kind, fill, 20, 16, 0.8)}</svg>`;
}

function portrait({ bg, skin, cloth, hair }) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200">
<rect width="200" height="200" fill="${bg}"/>
<circle cx="100" cy="100" r="86" fill="#fff" fill-opacity=".35"/>
<path d="M30 200q4-56 70-60 66 4 70 60z" fill="${cloth}"/>
<rect x="88" y="112" width="24" height="34" rx="10" fill="${skin}"/>
<ellipse cx="100" cy="92" rx="32" ry="38" fill="${skin}"/>
${hair}
<path d="M88 108q12 8 24 0" fill="none" stroke="#2b1a10" stroke-width="3" stroke-linecap="round"/>
<circle cx="88" cy="90" r="3.5" fill="#2b1a10"/><circle cx="112" cy="90" r="3.5" fill="#2b1a10"/></svg>`;
}

const TEAM = {
  'team-founder': portrait({
    bg: '#f4d35e', skin: '#7b4a2e', cloth: '#1b4332',
    hair: '<path d="M64 84q0-50 36-52 40 0 38 50-8-26-38-28-28 2-36 30z" fill="#9c4221"/><path d="M66 70q34-30 68 0l4-18q-38-32-76 0z" fill="#b5651d"/><circle cx="132" cy="56" r="12" fill="#9c4221"/>',
  }),
  'team-engineer': portrait({
    bg: '#a8dadc', skin: '#5c3a21', cloth: '#9c4221',
    hair: '<path d="M66 84q-4-48 34-50 40 0 34 50-4-22-34-26-28 2-34 26z" fill="#1f1a17"/><rect x="76" y="82" width="20" height="16" rx="5" fill="none" stroke="#1f2421" stroke-width="3"/><rect x="104" y="82" width="20" height="16" rx="5" fill="none" stroke="#1f2421" stroke-width="3"/><path d="M96 90h8" stroke="#1f2421" stroke-width="3"/>',
  }),
};

/** Flat illustrations used as SVG files (no srcset needed: they scale). */
const SVGS = {
  // Home hero: a rail of second-hand clothes.
  'hero-rail': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 440" width="640" height="440">
<rect width="640" height="440" rx="28" fill="#f1e9dc"/><circle cx="560" cy="360" r="44" fill="#f4d35e"/>
<path d="M40 70h560" stroke="#1b4332" stroke-width="10" stroke-linecap="round"/>
${['#1b4332', '#9c4221', '#2f5d8a', '#b5651d', '#7a3b69'].map((c, i) => {
    const x = 44 + i * 112; const kind = ['jacket', 'dress', 'jeans', 'tee', 'jumper'][i];
    return `<path d="M${x + 68} 70v14q-10 4-2 10" fill="none" stroke="#4a524d" stroke-width="4"/><path d="M${x + 24} 118l44-22 44 22" fill="none" stroke="#4a524d" stroke-width="4"/>${garment(kind, c, x - 12, 90, 0.8)}`;
  }).join('')}
<path d="M40 400h560" stroke="#1b4332" stroke-opacity=".2" stroke-width="6" stroke-linecap="round"/>
${garment('sneaker', '#1f2421', 60, 300, 0.55)}${garment('sneaker', '#9c4221', 150, 306, 0.5)}</svg>`,
  // About banner: a salaula pile of folded clothes.
  'clothes-pile': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 360" width="480" height="360">
<rect width="480" height="360" rx="28" fill="#e1ebdc"/>
${[['#2f5d8a', 80, 270, 320], ['#9c4221', 100, 232, 280], ['#f4d35e', 90, 194, 300], ['#1b4332', 120, 156, 250], ['#7a3b69', 110, 118, 260], ['#b5651d', 140, 80, 200]]
    .map(([c, x, y, w]) => `<rect x="${x}" y="${y}" width="${w}" height="38" rx="14" fill="${c}"/><path d="M${x + 20} ${y + 19}h${w - 40}" stroke="#fff" stroke-opacity=".35" stroke-width="3" stroke-dasharray="10 8"/>`)
    .join('')}</svg>`,
  // Coming-soon: a hanger with a shirt, floated by CSS.
  'floating-hanger': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 260" width="240" height="260">
<path d="M120 18a14 14 0 1 1 14 14q-14 2-14 16" fill="none" stroke="#4a524d" stroke-width="6" stroke-linecap="round"/>
<path d="M30 92l90-44 90 44z" fill="none" stroke="#4a524d" stroke-width="6" stroke-linejoin="round"/>
${garment('tee', '#9c4221', 20, 60, 1)}<ellipse cx="120" cy="250" rx="60" ry="6" fill="#1f2421" fill-opacity=".12"/></svg>`,
};
for (const [name, kind, fill, bg] of [
  ['cat-shirts', 'tee', '#1b4332', '#e1ebdc'], ['cat-jackets', 'jacket', '#33302c', '#e7e4df'],
  ['cat-denim', 'jeans', '#2f5d8a', '#dbe7f3'], ['cat-shoes', 'sneaker', '#9c4221', '#f6e0cf'],
  ['cat-dresses', 'dress', '#b5651d', '#fbeec1'], ['cat-knitwear', 'jumper', '#7a3b69', '#efe1ee'],
]) {
  SVGS[name] = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200"><rect width="200" height="200" rx="20" fill="${bg}"/>${garment(kind, fill, 20, 14, 0.8)}</svg>`;
}

for (const [name, svg] of Object.entries(SVGS)) writeFileSync(join(out, `${name}.svg`), svg.replace(/\n/g, ''));

const rasters = {
  ...Object.fromEntries(BRANDS.map(([slug, kind, bg, fill]) => [`brand-${slug}`, brandTile(kind, bg, fill)])),
  ...TEAM,
};
const WIDTHS = [200, 400];
const PLACEHOLDER_WIDTH = 16;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
for (const [name, svg] of Object.entries(rasters)) {
  for (const w of [...WIDTHS, PLACEHOLDER_WIDTH]) {
    const dataUrl = await page.evaluate(async ({ svg, w }) => {
      const img = new Image();
      img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = w;
      c.height = w;
      c.getContext('2d').drawImage(img, 0, 0, w, w);
      return c.toDataURL('image/webp', w <= 16 ? 0.5 : 0.82);
    }, { svg, w });
    const file = w === PLACEHOLDER_WIDTH ? `${name}-placeholder.webp` : `${name}-${w}.webp`;
    writeFileSync(join(out, file), Buffer.from(dataUrl.split(',')[1], 'base64'));
  }
}
await browser.close();
console.log(`wrote ${Object.keys(SVGS).length} SVGs and ${Object.keys(rasters).length} rasters to ${out}`);
