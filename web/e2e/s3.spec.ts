import { expect as baseExpect, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { freePort } from './fixtures';

/**
 * A seller onboards in the browser against a server whose media live in a
 * real S3 service: Versity's S3 gateway (bin/tools/versitygw, installed by
 * `make tools`) over a temporary folder. The logo lands in the bucket and
 * the server serves it back from there.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const gateway = join(root, 'bin', 'tools', 'versitygw');
const binary = join(root, 'bin', 'salaula');
const PASSWORD = 'Kabulonga-Thrift-2026!';
const BUCKET = 'salaula-media';
const expect = baseExpect.configure({ timeout: 15_000 });

let dir = '';
let base = '';
const children: ChildProcess[] = [];

/** Runs a program and resolves with the first output line matching ready. */
function start(cmd: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<RegExpMatchArray> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${cmd} did not start in 30 s:\n${out}`)), 30_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = out.match(ready);
      if (m) {
        clearTimeout(timer);
        ok(m);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`${cmd} exited (${code}) before it was ready:\n${out}`)));
  });
}

/** A small valid PNG (a 2 x 2 orange square), as a seller's logo. */
function logoPNG(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, sum]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const rows = Buffer.from([0, 244, 162, 97, 244, 162, 97, 0, 244, 162, 97, 244, 162, 97]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  if (!existsSync(gateway)) throw new Error(`${gateway} is missing: run \`make tools\` (make test does it)`);
  dir = mkdtempSync(join(tmpdir(), 'salaula-e2e-s3-'));
  mkdirSync(join(dir, 'buckets', BUCKET), { recursive: true }); // a bucket is a folder of the posix backend
  const s3Port = await freePort();
  await start(
    gateway,
    ['--access', 'e2e-access', '--secret', 'e2e-secret-key', '--port', `127.0.0.1:${s3Port}`, 'posix', join(dir, 'buckets')],
    {},
    /versitygw|listening|started/i,
  );
  // The gateway prints its banner before it accepts: wait for the port.
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`http://127.0.0.1:${s3Port}/`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const m = await start(
    binary,
    ['serve', '--http', '127.0.0.1:0', '--data', join(dir, 'data')],
    {
      SALAULA_S3_BUCKET: BUCKET,
      SALAULA_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      SALAULA_S3_ACCESS_KEY: 'e2e-access',
      SALAULA_S3_SECRET_KEY: 'e2e-secret-key',
      SALAULA_RATE_AUTH: '1000/1m',
      SALAULA_RATE_UPLOADS: '1000/1m',
    },
    /"msg":"serving","addr":"([^"]+)"/,
  );
  base = `http://${m[1]}`;
});

test.afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a seller onboards with a logo stored in S3 and sees it served back', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = `s3-seller-${Date.now()}@example.com`;
  await page.goto(`${base}/sign_up`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page).toHaveURL(/\/select_role$/);
  await page.getByRole('button', { name: /Become a Seller/ }).click();
  await page.getByRole('button', { name: 'PROCEED' }).click();
  await expect(page.getByRole('heading', { name: 'Create Your Seller Profile' })).toBeVisible();

  await page.getByLabel('Full name', { exact: true }).fill('Natasha Phiri');
  await page.getByLabel('Phone number', { exact: true }).fill('0971234567');
  await page.getByLabel('Location', { exact: true }).fill('Soweto Market, Lusaka');
  await page.getByLabel('Age', { exact: true }).fill('29');
  await page.getByRole('radio', { name: 'Female', exact: true }).click();
  await page.getByLabel('Business name', { exact: true }).fill('Natasha Vintage');
  await page.getByRole('radio', { name: /Street Vendor/ }).check();
  const logo = logoPNG();
  await page.getByLabel('Add logo or brand images').setInputFiles([{ name: 'logo.png', mimeType: 'image/png', buffer: logo }]);
  await expect(page.getByRole('img', { name: /^Logo 1 preview$/ })).toHaveCount(1);
  await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
  const dialog = new Promise<string>((ok) =>
    page.once('dialog', (d) => {
      ok(d.message());
      void d.accept();
    }),
  );
  await page.getByRole('button', { name: 'FINISH & CREATE PROFILE' }).click();
  expect(await dialog).toBe('Seller profile created successfully!');
  await expect(page).toHaveURL(/\/thanks$/);

  // The logo is an object in the bucket, under the seller's own folder...
  const userDirs = readdirSync(join(dir, 'buckets', BUCKET, 'user-media'));
  expect(userDirs).toHaveLength(1);
  const stored = readdirSync(join(dir, 'buckets', BUCKET, 'user-media', userDirs[0], 'logos'));
  expect(stored).toHaveLength(1);
  // ...and the server serves it back from S3 with the type it sniffed.
  const res = await request.get(`${base}/storage/v1/object/public/user-media/${userDirs[0]}/logos/${stored[0]}`);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('image/png');
  expect(res.headers()['x-content-type-options']).toBe('nosniff');
  expect(Buffer.compare(await res.body(), logo)).toBe(0);
});
