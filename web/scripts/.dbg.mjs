import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await b.newPage({ viewport: { width: 360, height: 740 } });
await p.goto('http://127.0.0.1:18606/' + (process.argv[2] ?? ''));
await p.waitForTimeout(2500);
console.log(await p.evaluate(() => document.documentElement.scrollWidth));
console.log(await p.evaluate(() => { const out=[]; for (const el of document.querySelectorAll('body *')) { const r = el.getBoundingClientRect(); if (r.right > window.innerWidth + 1 && !el.closest('[data-testid=launch-ticker]') && !el.closest('ul[aria-label]')) out.push(el.tagName + ' ' + (el.textContent||'').slice(0,30) + ' | parent ' + el.parentElement.tagName + ' ' + el.parentElement.className.toString().slice(0,30)+ ' ' + Math.round(r.left)+'-'+Math.round(r.right)); } return out.slice(0, 15); }));
await b.close();
