import { describe, expect, it } from 'vitest';
import { BlobLinks, contentDisposition } from './blob-links.js';
import type { Clock } from './clock.js';
import { Signer } from './signed.js';

class TestClock implements Clock {
  private t = Date.parse('2026-11-22T08:00:00Z');
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

const signer = new Signer(new TextEncoder().encode('blob-links-test-secret'));

function tokenOf(url: string): string {
  return new URL(url, 'http://x').searchParams.get('token')!;
}

describe('BlobLinks (presigned URLs of the local store)', () => {
  it('signs an upload URL that carries key, type and limit, until it expires', () => {
    const clock = new TestClock();
    const links = new BlobLinks(signer, clock);
    const put = links.put('uploads/a/b.png', { contentType: 'image/png', maxBytes: 100, size: 40, expiresSeconds: 60 });
    expect(put.method).toBe('PUT');
    expect(put.url.startsWith('/yyp/api/v1/blobs/upload?token=')).toBe(true);
    expect(put.headers).toEqual({ 'content-type': 'image/png' });
    expect(put.expiresAt).toBe(Math.floor(clock.now().getTime() / 1000) + 60);
    expect(links.verifyPut(tokenOf(put.url))).toEqual({ key: 'uploads/a/b.png', contentType: 'image/png', limit: 40 });
    clock.advance(61_000);
    expect(links.verifyPut(tokenOf(put.url))).toBeNull();
  });

  it('never lets the size exceed the limit', () => {
    const links = new BlobLinks(signer, new TestClock());
    const put = links.put('k', { contentType: 'image/png', maxBytes: 100, size: 1000, expiresSeconds: 60 });
    expect(links.verifyPut(tokenOf(put.url))?.limit).toBe(100);
  });

  it('refuses a token that was altered, or made for downloads', () => {
    const links = new BlobLinks(signer, new TestClock());
    const token = tokenOf(
      links.put('uploads/a/b.png', { contentType: 'image/png', maxBytes: 9, expiresSeconds: 60 }).url,
    );
    const [body, mac] = token.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${Buffer.from(JSON.stringify({ ...payload, k: 'uploads/other/b.png' })).toString('base64url')}.${mac}`;
    expect(links.verifyPut(forged)).toBeNull();
    const download = tokenOf(links.get('uploads/a/b.png', { expiresSeconds: 60 }));
    expect(links.verifyPut(download)).toBeNull();
    expect(links.verifyGet(token)).toBeNull();
    expect(links.verifyGet(download)).toMatchObject({ key: 'uploads/a/b.png', contentType: null, fileName: null });
  });

  it('answers the same download URL for the same issue time', () => {
    const clock = new TestClock();
    const links = new BlobLinks(signer, clock);
    const issuedAt = new Date(clock.now().getTime() - 1000);
    const a = links.get('k', { expiresSeconds: 60, issuedAt, contentType: 'image/png' });
    clock.advance(5000);
    expect(links.get('k', { expiresSeconds: 60, issuedAt, contentType: 'image/png' })).toBe(a);
    expect(links.verifyGet(tokenOf(a))).toMatchObject({ contentType: 'image/png' });
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('attachment', '报告 "final".pdf')).toBe(
      `attachment; filename="__ _final_.pdf"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%20%22final%22.pdf`,
    );
  });
  it('drops control characters and path separators', () => {
    expect(contentDisposition('inline', 'a\r\nb/c\\d.png')).toBe(
      `inline; filename="ab_c_d.png"; filename*=UTF-8''ab_c_d.png`,
    );
  });
});
