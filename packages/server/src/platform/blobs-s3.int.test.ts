import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, S3RVER_KEY, type TestS3 } from '../test/s3.js';
import { LocalBlobStore, type BlobStore } from './blobs.js';
import type { S3BlobStore } from './blobs-s3.js';

/**
 * One contract for every blob store: the local folder and S3 (s3rver, a real S3 server on
 * loopback, no mocks) must behave the same to the code that stores DICOM, packages and uploads.
 */
let s3: TestS3;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-blobs-contract-'));
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A stream of `total` pseudo-random bytes in 64 KiB chunks, made as it is read. */
function generated(total: number, seed: number): { stream: Readable; digest: () => string } {
  const hash = crypto.createHash('sha256');
  let sent = 0;
  let state = seed;
  const stream = new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(65536, total - sent);
      const chunk = Buffer.alloc(n);
      for (let i = 0; i < n; i++) {
        state = (state * 1103515245 + 12345) >>> 0;
        chunk[i] = state >>> 24;
      }
      sent += n;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

const stores: [string, () => BlobStore][] = [
  ['LocalBlobStore', () => new LocalBlobStore(root)],
  // Parts of the minimum size, so a 12 MiB stream goes as a three-part multipart upload.
  ['S3BlobStore', () => s3.store({ partSize: 5 * 1024 * 1024 })],
];

describe.each(stores)('%s contract', (_name, make) => {
  let store: BlobStore;
  beforeAll(() => {
    store = make();
  });

  it('writes, reads, sizes, ranges and deletes', async () => {
    await store.put('c/a/b.dcm', Buffer.from('hello world'));
    expect((await store.get('c/a/b.dcm')).toString()).toBe('hello world');
    expect(await store.size('c/a/b.dcm')).toBe(11);
    expect((await read(store.stream('c/a/b.dcm', { start: 6, end: 10 }))).toString()).toBe('world');
    // (0-0 is not asked: s3rver answers that range whole, real S3 one byte.)
    expect((await read(store.stream('c/a/b.dcm', { start: 0, end: 1 }))).toString()).toBe('he');
    expect((await read(store.stream('c/a/b.dcm'))).toString()).toBe('hello world');
    await store.delete('c/a/b.dcm');
    expect(await store.size('c/a/b.dcm')).toBeNull();
  });

  it('overwrites a key whole and deletes idempotently', async () => {
    await store.put('c/idem', Buffer.from('first version, longer'));
    await store.put('c/idem', Buffer.from('second'));
    await store.put('c/idem', Buffer.from('second'));
    expect((await store.get('c/idem')).toString()).toBe('second');
    await store.delete('c/idem');
    await store.delete('c/idem');
    await store.delete('c/never-was');
    expect(await store.size('c/idem')).toBeNull();
  });

  it('answers a missing blob the same way: size null, get and stream fail with ENOENT', async () => {
    expect(await store.size('c/missing')).toBeNull();
    await expect(store.get('c/missing')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(read(store.stream('c/missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('streams a small blob in and counts its bytes', async () => {
    const n = await store.putStream('c/s/small', Readable.from([Buffer.from('ab'), Buffer.from('cd')]));
    expect(n).toBe(4);
    expect((await store.get('c/s/small')).toString()).toBe('abcd');
    expect(await store.putStream('c/s/empty', Readable.from([]))).toBe(0);
    expect(await store.size('c/s/empty')).toBe(0);
  });

  it('streams a 12 MiB blob in without holding it whole, byte for byte', async () => {
    const total = 12 * 1024 * 1024 + 123;
    const source = generated(total, 7);
    expect(await store.putStream('c/s/large', source.stream)).toBe(total);
    expect(await store.size('c/s/large')).toBe(total);
    const back = crypto.createHash('sha256');
    for await (const c of store.stream('c/s/large')) back.update(c as Buffer);
    expect(back.digest('hex')).toBe(source.digest());
    // A range across the first part boundary.
    const edge = 5 * 1024 * 1024;
    const slice = await read(store.stream('c/s/large', { start: edge - 2, end: edge + 1 }));
    expect(slice.length).toBe(4);
  });

  it('takes a 12 MiB file byte for byte, streamed, and the file is gone from its path', async () => {
    const total = 12 * 1024 * 1024 + 5;
    const source = generated(total, 11);
    const file = path.join(root, `take-${crypto.randomBytes(4).toString('hex')}`);
    await pipeline(source.stream, fs.createWriteStream(file));
    await store.putFile('c/f/taken.dcm', file);
    expect(fs.existsSync(file)).toBe(false);
    expect(await store.size('c/f/taken.dcm')).toBe(total);
    const back = crypto.createHash('sha256');
    for await (const c of store.stream('c/f/taken.dcm')) back.update(c as Buffer);
    expect(back.digest('hex')).toBe(source.digest());
    await store.delete('c/f/taken.dcm');
  });

  it('leaves nothing behind when a stream fails mid-way, small or past the first part', async () => {
    for (const [key, before] of [
      ['c/s/broken-small', 1000],
      ['c/s/broken-large', 6 * 1024 * 1024],
    ] as const) {
      let sent = 0;
      const failing = new Readable({
        read() {
          if (sent >= before) return void this.destroy(new Error('connection dropped'));
          sent += 65536;
          this.push(Buffer.alloc(65536, 1));
        },
      });
      await expect(store.putStream(key, failing)).rejects.toThrow(/dropped/);
      expect(await store.size(key)).toBeNull();
    }
  });

  it('refuses unsafe keys before touching the store', async () => {
    for (const key of ['../x', 'a//b', '/abs', 'sp ace']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/unsafe/);
      expect(() => store.stream(key)).toThrow(/unsafe/);
    }
  });
});

/**
 * AWS Signature V4 of a presigned request, computed here from the specification (not by the SDK
 * that made the URL): s3rver does not check V4 signatures, so this is how the tests know that
 * real S3 refuses a presigned PUT with another content type or length.
 */
function signatureMatches(url: string, method: string, headers: Record<string, string>, secret: string): boolean {
  const u = new URL(url);
  const q = u.searchParams;
  const enc = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [enc(k), enc(v)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const lower = Object.fromEntries(Object.entries({ ...headers, host: u.host }).map(([k, v]) => [k.toLowerCase(), v]));
  const signed = q.get('X-Amz-SignedHeaders')!.split(';');
  const canonical = [
    method,
    u.pathname
      .split('/')
      .map((p) => enc(decodeURIComponent(p)))
      .join('/'),
    query,
    signed.map((h) => `${h}:${(lower[h] ?? '').trim()}\n`).join(''),
    signed.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const date = q.get('X-Amz-Date')!;
  const scope = q.get('X-Amz-Credential')!.split('/').slice(1).join('/');
  const toSign = ['AWS4-HMAC-SHA256', date, scope, crypto.createHash('sha256').update(canonical).digest('hex')].join(
    '\n',
  );
  const [day, region, service] = scope.split('/');
  let key: Buffer = Buffer.from(`AWS4${secret}`);
  for (const part of [day!, region!, service!, 'aws4_request']) {
    key = crypto.createHmac('sha256', key).update(part).digest();
  }
  return crypto.createHmac('sha256', key).update(toSign).digest('hex') === q.get('X-Amz-Signature');
}

describe('S3BlobStore presigned URLs (s3rver)', () => {
  let store: S3BlobStore;
  beforeAll(() => {
    store = s3.store();
  });
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(92, 3)]);

  it('takes a PUT of the signed type and size straight into the bucket, then reads it back', async () => {
    const put = await store.presignPut('uploads/t/ok.png', {
      contentType: 'image/png',
      maxBytes: 1000,
      size: png.length,
      expiresSeconds: 60,
    });
    expect(put.method).toBe('PUT');
    expect(put.url.startsWith(`${s3.endpoint}/${s3.bucket}/uploads/t/ok.png?`)).toBe(true);
    expect(put.headers).toEqual({ 'content-type': 'image/png' });
    expect(put.expiresAt).toBeGreaterThan(Date.now() / 1000 + 50);
    // No checksum parameters a browser could not satisfy.
    expect(put.url).not.toMatch(/checksum/i);
    const res = await fetch(put.url, { method: 'PUT', headers: put.headers, body: png });
    expect(res.status).toBe(200);
    expect(await store.size('uploads/t/ok.png')).toBe(png.length);

    const get = await store.presignGet('uploads/t/ok.png', { expiresSeconds: 60, fileName: '头像 1.png' });
    const down = await fetch(get);
    expect(down.status).toBe(200);
    expect(Buffer.from(await down.arrayBuffer()).equals(png)).toBe(true);
    expect(down.headers.get('content-disposition')).toBe(
      `attachment; filename="__ 1.png"; filename*=UTF-8''%E5%A4%B4%E5%83%8F%201.png`,
    );
    const ranged = await fetch(get, { headers: { range: 'bytes=1-3' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).toString('latin1')).toBe('PNG');
  });

  it('signs the content type and exact length, so S3 refuses another type or an over-size body', async () => {
    const put = await store.presignPut('uploads/t/signed.png', {
      contentType: 'image/png',
      maxBytes: 1000,
      size: 100,
      expiresSeconds: 60,
    });
    expect(new URL(put.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    const as = (type: string, length: number) =>
      signatureMatches(put.url, 'PUT', { 'content-type': type, 'content-length': String(length) }, S3RVER_KEY);
    expect(as('image/png', 100)).toBe(true);
    expect(as('image/png', 101)).toBe(false);
    expect(as('image/png', 5_000_000)).toBe(false);
    expect(as('text/html', 100)).toBe(false);
    await expect(
      store.presignPut('uploads/t/x.png', { contentType: 'image/png', maxBytes: 10, size: 11, expiresSeconds: 60 }),
    ).rejects.toThrow(RangeError);
  });

  it('refuses an expired URL (s3rver checks X-Amz-Date + X-Amz-Expires)', async () => {
    const past = s3.store({ clock: { now: () => new Date(Date.now() - 3600_000) } });
    const put = await past.presignPut('uploads/t/late.png', {
      contentType: 'image/png',
      maxBytes: 1000,
      size: png.length,
      expiresSeconds: 60,
    });
    const res = await fetch(put.url, { method: 'PUT', headers: put.headers, body: png });
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/expired/);
    expect(await store.size('uploads/t/late.png')).toBeNull();
    const get = await past.presignGet('uploads/t/ok.png', { expiresSeconds: 60 });
    expect((await fetch(get)).status).toBe(403);
  });

  it('signs the same GET URL all through a window when asked (browser caching)', async () => {
    const issuedAt = new Date(Math.floor(Date.now() / 3600_000) * 3600_000);
    const a = await store.presignGet('uploads/t/ok.png', { expiresSeconds: 7200, issuedAt });
    const b = await store.presignGet('uploads/t/ok.png', { expiresSeconds: 7200, issuedAt });
    expect(a).toBe(b);
    expect((await fetch(a)).status).toBe(200);
  });

  it('uses the public endpoint for URLs and the private one for its own calls', async () => {
    const split = s3.store({ endpoint: s3.endpoint, publicEndpoint: 'https://files.example.org' });
    const put = await split.presignPut('uploads/t/pub.png', {
      contentType: 'image/png',
      maxBytes: 10,
      expiresSeconds: 60,
    });
    expect(put.url.startsWith('https://files.example.org/yyp-test/uploads/t/pub.png?')).toBe(true);
    await split.put('uploads/t/pub.png', Buffer.from('x'));
    expect(await split.size('uploads/t/pub.png')).toBe(1);
  });

  it('says clearly when the bucket cannot be reached', async () => {
    await expect(s3.store().checkBucket()).resolves.toBeUndefined();
    await expect(s3.store({ bucket: 'no-such-bucket' }).checkBucket()).rejects.toThrow(
      /S3 bucket "no-such-bucket" is not reachable/,
    );
  });
});

describe('S3BlobStore key listing (yyp reindex)', () => {
  it('lists every key under a prefix and nothing outside it', async () => {
    const store = s3.store();
    const keys = [
      'dicom/b1/s/x/1.dcm',
      'dicom/b1/s/x/2.dcm',
      'dicom/b2/t/y/3.dcm',
      'dicomish/4.dcm',
      'uploads/a/5.png',
    ];
    for (const k of keys) await store.put(k, Buffer.from(k));
    const listed: string[] = [];
    for await (const k of store.keys('dicom')) listed.push(k);
    expect(listed.sort()).toEqual(keys.slice(0, 3));
    for (const k of keys) await store.delete(k);
  });
});
