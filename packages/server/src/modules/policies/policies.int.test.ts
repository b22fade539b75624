import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { uploadKinds, uploadRules, type UploadKind, type UploadPolicy } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMember, makeOrganization } from '../../test/factories.js';
import { DEMO_PW, startTestApp, type TestApp } from '../../test/harness.js';

/** Policy calls, the local store's upload and download URLs, and the avatar built on them. */
let t: TestApp;
let base: string;
let doctor: string;
let tech: string;
let doctorId: string;

const MB = 1024 * 1024;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 7)]);
const samples: Record<UploadKind, { type: string; bytes: Buffer }> = {
  avatars: { type: 'image/png', bytes: png(300) },
  images: { type: 'image/jpeg', bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 1)]) },
  forms: { type: 'application/pdf', bytes: Buffer.from('%PDF-1.7\n% scanned order form\n') },
  consultations: {
    type: 'application/vnd.ms-xpsdocument',
    bytes: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(300, 3)]),
  },
  attachments: {
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    bytes: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 2)]),
  },
};

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // A radiology's reporting doctor and technician (signed in again by a case as 'tech').
  const { bucketId } = await makeOrganization(t);
  const reporting = [
    'exam_get',
    'exam_update',
    'attachment_create',
    'attachment_presigned_url',
    'attachment_upload',
    'report_upsert',
  ] as const;
  const technician = ['exam_get', 'exam_update', 'exam_upload', 'exam_bind', 'attachment_upload'] as const;
  await makeMember(t, bucketId, { username: 'doctor', actions: reporting, password: DEMO_PW, signIn: false });
  await makeMember(t, bucketId, { username: 'tech', actions: technician, password: DEMO_PW, signIn: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  doctor = await t.login('doctor');
  tech = await t.login('tech');
  doctorId = (await t.as(doctor).get('accounts/me')).json().id;
});
afterAll(async () => {
  await t.close();
});

async function policy(token: string, kind: UploadKind, query: Record<string, string | number | undefined>) {
  const qs = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();
  return t.as(token).get(`policies/${kind}?${qs}`);
}

async function issued(token: string, kind: UploadKind, type: string, size: number): Promise<UploadPolicy> {
  const res = await policy(token, kind, { contentType: type, size });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UploadPolicy;
}

function put(p: UploadPolicy, body: Buffer, headers: Record<string, string> = p.upload.headers) {
  return t.app.inject({ method: 'PUT', url: p.upload.url, headers, payload: body });
}

function uploadsOf(accountId: string, kind: UploadKind): string[] {
  const dir = path.join(t.blobDir, 'uploads', kind, accountId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe('GET policies/*', () => {
  it.each(uploadKinds)('%s needs a signed-in caller', async (kind) => {
    const res = await t.call('GET', `policies/${kind}?contentType=image/png&size=10`);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('Unauthenticated');
  });

  it.each(uploadKinds)('%s answers a policy for one file under a key of the caller', async (kind) => {
    const { type, bytes } = samples[kind];
    const p = await issued(doctor, kind, type, bytes.length);
    expect(p.key).toMatch(new RegExp(`^uploads/${kind}/${doctorId}/[0-9a-f-]{36}\\.[a-z]+$`));
    expect(p.upload.method).toBe('PUT');
    expect(p.upload.url.startsWith('/yyp/api/v1/blobs/upload?token=')).toBe(true);
    expect(p.upload.headers).toEqual({ 'content-type': type });
    expect(p.expiresAt).toBe(Math.floor(t.clock.now().getTime() / 1000) + 15 * 60);
    expect(p.maxBytes).toBe(uploadRules[kind].maxBytes);
    expect(p.accept).toEqual(uploadRules[kind].accept);
    // Nothing is stored until the file is sent.
    expect(await t.blobs.size(p.key)).toBeNull();
    const sent = await put(p, bytes);
    expect(sent.statusCode, sent.body).toBe(204);
    expect((await t.blobs.get(p.key)).equals(bytes)).toBe(true);
    await expect(t.services.policies.assertOwnedUpload(doctorId, kind, p.key)).resolves.toMatchObject({
      key: p.key,
      size: bytes.length,
      contentType: type,
    });
  });

  it.each([
    ['avatars', 'image/png', 2 * MB + 1, 'FileTooLarge'],
    ['avatars', 'image/gif', 100, 'FileTypeNotAllowed'],
    ['avatars', 'image/svg+xml', 100, 'FileTypeNotAllowed'],
    ['images', 'image/jpeg', 5 * MB + 1, 'FileTooLarge'],
    ['images', 'application/pdf', 100, 'FileTypeNotAllowed'],
    ['forms', 'application/pdf', 20 * MB + 1, 'FileTooLarge'],
    ['forms', 'text/html', 100, 'FileTypeNotAllowed'],
    ['attachments', 'application/pdf', 50 * MB + 1, 'FileTooLarge'],
    ['attachments', 'application/x-msdownload', 100, 'FileTypeNotAllowed'],
  ] as const)('%s refuses %s of %d bytes with 400 %s before any URL', async (kind, type, size, code) => {
    const res = await policy(doctor, kind, { contentType: type, size });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(code);
    expect(res.body).not.toContain('blobs/upload');
    expect(res.json().details).toMatchObject(code === 'FileTooLarge' ? { maxBytes: uploadRules[kind].maxBytes } : {});
  });

  it('refuses a missing or empty size and an empty type', async () => {
    for (const query of [{ contentType: 'image/png' }, { contentType: 'image/png', size: 0 }, { size: 'ten' }]) {
      const res = await policy(doctor, 'avatars', query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().code).toBe('ValidationError');
    }
    const untyped = await policy(doctor, 'avatars', { size: 10 });
    expect(untyped.json().code).toBe('FileTypeNotAllowed');
  });

  it('takes the type from the file name when the browser gives none', async () => {
    const res = await policy(doctor, 'attachments', { contentType: '', size: 10, fileName: '报告.xlsx' });
    expect(res.statusCode).toBe(200);
    expect(res.json().key).toMatch(/\.xlsx$/);
  });
});

describe('the upload URL (local store)', () => {
  it('refuses another content type, and stores nothing', async () => {
    const p = await issued(doctor, 'avatars', 'image/png', 300);
    const res = await put(p, png(300), { 'content-type': 'text/html' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('FileTypeNotAllowed');
    expect(await t.blobs.size(p.key)).toBeNull();
  });

  it('refuses more bytes than the policy was for with 413, and stores nothing', async () => {
    const p = await issued(doctor, 'avatars', 'image/png', 300);
    const res = await put(p, png(301));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PayloadTooLarge', details: { maxBytes: 300 } });
    expect(await t.blobs.size(p.key)).toBeNull();
  });

  it('cuts off a streamed body without a length once it passes the limit', async () => {
    const p = await issued(doctor, 'images', 'image/jpeg', 100_000);
    const chunk = Buffer.alloc(64 * 1024, 1);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 4) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${base}${p.upload.url}`, {
      method: 'PUT',
      headers: p.upload.headers,
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(((await res.json()) as { code: string }).code).toBe('PayloadTooLarge');
    expect(await t.blobs.size(p.key)).toBeNull();
    expect(fs.readdirSync(path.join(t.blobDir, '.tmp'))).toEqual([]);
  });

  it('leaves nothing behind when the connection drops mid-upload', async () => {
    const p = await issued(doctor, 'forms', 'application/pdf', 100_000);
    const socket = net.connect((t.app.server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `PUT ${p.upload.url} HTTP/1.1\r\nhost: x\r\ncontent-type: application/pdf\r\ncontent-length: 100000\r\n\r\n`,
    );
    socket.write(Buffer.alloc(30_000, 1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    const tmp = path.join(t.blobDir, '.tmp');
    for (let i = 0; i < 50 && fs.readdirSync(tmp).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect(await t.blobs.size(p.key)).toBeNull();
  });

  it('takes the file with plain fetch over HTTP and lets it be sent again (same bytes, same key)', async () => {
    const bytes = samples.avatars.bytes;
    const p = await issued(doctor, 'avatars', 'image/png', bytes.length);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base}${p.upload.url}`, { method: 'PUT', headers: p.upload.headers, body: bytes });
      expect(res.status).toBe(204);
    }
    expect((await t.blobs.get(p.key)).equals(bytes)).toBe(true);
  });

  it('refuses an expired URL with 403 LinkInvalid', async () => {
    const p = await issued(doctor, 'forms', 'application/pdf', samples.forms.bytes.length);
    t.clock.advance(15 * 60 * 1000 + 1000);
    try {
      const res = await put(p, samples.forms.bytes);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('LinkInvalid');
      expect(await t.blobs.size(p.key)).toBeNull();
    } finally {
      t.clock.advance(-(15 * 60 * 1000 + 1000));
    }
  });

  it("cannot be turned to another caller's key, and no call accepts another caller's upload", async () => {
    const mine = await issued(tech, 'avatars', 'image/png', 300);
    const theirs = await issued(doctor, 'avatars', 'image/png', 300);
    // Rewrite the signed key of tech's URL to doctor's key: the signature no longer fits.
    const token = new URL(mine.upload.url, base).searchParams.get('token')!;
    const [body, mac] = token.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${Buffer.from(JSON.stringify({ ...payload, k: theirs.key })).toString('base64url')}.${mac}`;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/yyp/api/v1/blobs/upload?token=${encodeURIComponent(forged)}`,
      headers: mine.upload.headers,
      payload: png(300),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('LinkInvalid');
    expect(await t.blobs.size(theirs.key)).toBeNull();

    // Doctor uploads; tech cannot claim doctor's file as an avatar, nor any path of their choosing.
    expect((await put(theirs, png(300))).statusCode).toBe(204);
    for (const avatar of [
      theirs.key,
      'uploads/avatars/../../jwt-secret',
      'studies/x.dcm',
      'https://evil.example/a.png',
    ]) {
      const patch = await t.call('PATCH', 'accounts/me', { token: tech, body: { avatar } });
      expect(patch.statusCode, avatar).toBe(400);
      expect(patch.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'notYours' } });
    }
    await expect(t.services.policies.assertOwnedUpload(doctorId, 'images', theirs.key)).rejects.toMatchObject({
      code: 'InvalidUpload',
    });
  });

  it('answers a clear error for a missing or mangled token', async () => {
    for (const url of ['blobs/upload', 'blobs/upload?token=abc', 'blobs/upload?token=a.b']) {
      const res = await t.call('PUT', url, { headers: { 'content-type': 'image/png' }, body: PNG });
      expect([400, 403]).toContain(res.statusCode);
      expect(['ValidationError', 'LinkInvalid']).toContain(res.json().code);
    }
  });
});

describe('avatar end to end', () => {
  async function uploadAvatar(token: string, bytes: Buffer, type = 'image/png'): Promise<string> {
    const p = await issued(token, 'avatars', type, bytes.length);
    expect((await put(p, bytes)).statusCode).toBe(204);
    return p.key;
  }

  it('sets an uploaded avatar, shows it through a signed URL, replaces and removes it', async () => {
    const first = png(400);
    const key = await uploadAvatar(doctor, first);
    const res = await t.call('PATCH', 'accounts/me', { token: doctor, body: { avatar: key } });
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().avatar as string;
    expect(url.startsWith('/yyp/api/v1/blobs/download?token=')).toBe(true);
    expect(url).not.toContain(key);
    // The same URL within the window, so the browser caches the picture.
    expect((await t.as(doctor).get('accounts/me')).json().avatar).toBe(url);

    const shown = await t.app.inject({ method: 'GET', url });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');
    expect(shown.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(shown.headers['content-security-policy']).toMatch(/sandbox/);
    expect(shown.rawPayload.equals(first)).toBe(true);
    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=1-3' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1-3/${first.length}`);
    expect(part.body).toBe('PNG');

    // Replacing it removes the old picture; null removes the avatar.
    const second = await uploadAvatar(doctor, png(500));
    const replaced = await t.call('PATCH', 'accounts/me', { token: doctor, body: { avatar: second } });
    expect(replaced.json().avatar).not.toBe(url);
    expect(await t.blobs.size(key)).toBeNull();
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const cleared = await t.call('PATCH', 'accounts/me', { token: doctor, body: { avatar: null } });
    expect(cleared.json().avatar).toBeNull();
    expect(await t.blobs.size(second)).toBeNull();
    expect(uploadsOf(doctorId, 'avatars')).not.toContain(path.basename(second));
  });

  it('refuses an avatar never uploaded, or whose bytes are not the declared picture, changing nothing', async () => {
    const unsent = await issued(tech, 'avatars', 'image/png', 300);
    const missing = await t.call('PATCH', 'accounts/me', {
      token: tech,
      body: { avatar: unsent.key, name: 'Changed' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'missing' } });

    const html = Buffer.from('<html><script>alert(1)</script></html>'.padEnd(300, ' '));
    const disguised = await uploadAvatar(tech, html);
    const refused = await t.call('PATCH', 'accounts/me', { token: tech, body: { avatar: disguised } });
    expect(refused.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'typeMismatch' } });
    const me = (await t.as(tech).get('accounts/me')).json();
    expect(me.avatar).toBeNull();
    expect(me.name).not.toBe('Changed');
  });

  it('stops showing through an expired download URL', async () => {
    const key = await uploadAvatar(tech, png(350));
    const url = (await t.call('PATCH', 'accounts/me', { token: tech, body: { avatar: key } })).json().avatar as string;
    t.clock.advance(13 * 3600 * 1000);
    try {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('LinkInvalid');
      const fresh = (await t.as(await t.login('tech')).get('accounts/me')).json().avatar as string;
      expect(fresh).not.toBe(url);
      expect((await t.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200);
    } finally {
      t.clock.advance(-13 * 3600 * 1000);
    }
  });
});
