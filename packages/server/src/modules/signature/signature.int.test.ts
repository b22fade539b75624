import { eq } from 'drizzle-orm';
import type { UploadCode, UploadPolicy } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { makeMember, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/** Settings → Signature: a phone draws the signature with a 10-minute code; the desktop sets or removes it. */
let t: TestApp;
let doctor: string;
let tech: string;
let doctorId: string;

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number, fill = 7) => Buffer.concat([PNG_HEAD, Buffer.alloc(size - PNG_HEAD.length, fill)]);
const MB = 1024 * 1024;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // A radiology's reporting doctor and its technician.
  const { bucketId } = await makeOrganization(t);
  doctor = (await makeMember(t, bucketId, { actions: ['exam_get', 'report_upsert', 'report_print'] })).token;
  tech = (await makeMember(t, bucketId, { actions: ['exam_get', 'exam_upload', 'attachment_upload'] })).token;
  doctorId = (await t.as(doctor).get('accounts/me')).json().id;
});
afterAll(async () => {
  await t.close();
});

async function issueCode(token = doctor): Promise<UploadCode> {
  const res = await t.as(token).post('signature/code');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UploadCode;
}
function policyCall(code: string, size: number, contentType = 'image/png') {
  return t.call('GET', `signature/policies?${new URLSearchParams({ code, size: String(size), contentType })}`);
}
async function uploadWithCode(code: string, bytes: Buffer): Promise<string> {
  const res = await policyCall(code, bytes.length);
  expect(res.statusCode, res.body).toBe(200);
  const p = res.json() as UploadPolicy;
  const sent = await t.app.inject({ method: 'PUT', url: p.upload.url, headers: p.upload.headers, payload: bytes });
  expect(sent.statusCode, sent.body).toBe(204);
  return p.key;
}
const setByCode = (code: string, url: string) => t.call('POST', 'signature', { body: { code, url } });

describe('signature by code (phone)', () => {
  it('issues a code for the mobile page that expires in 10 minutes', async () => {
    const c = await issueCode();
    expect(c.url).toBe(`/mobileSignature?code=${encodeURIComponent(c.code)}`);
    expect(c.expiresAt).toBe(Math.floor(t.clock.now().getTime() / 1000) + 600);
    expect((await t.call('POST', 'signature/code')).statusCode).toBe(401);
  });

  it('sets the signature from the phone, once, and shows it on the desktop', async () => {
    const c = await issueCode();
    const bytes = png(2000);
    const key = await uploadWithCode(c.code, bytes);
    expect(key).toMatch(/^uploads\/images\/code-[0-9a-f-]{36}\/[0-9a-f-]{36}\.png$/);
    const res = await setByCode(c.code, key);
    expect(res.statusCode, res.body).toBe(200);
    const mine = await t.as(doctor).get('signature/mine');
    expect(mine.statusCode).toBe(200);
    const url = mine.json().signature as string;
    expect(url.startsWith('/yyp/api/v1/blobs/download?token=')).toBe(true);
    const shown = await t.app.inject({ method: 'GET', url });
    expect(shown.rawPayload.equals(bytes)).toBe(true);
    // The account itself (accounts/me, the User of spec 000 §3) shows it by URL too, never the raw key.
    const me = (await t.as(doctor).get('accounts/me')).json() as { signature: string };
    expect(me.signature.startsWith('/yyp/api/v1/blobs/download?token=')).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: me.signature })).rawPayload.equals(bytes)).toBe(true);
    // Used once: neither another policy nor a second POST works.
    const again = await setByCode(c.code, key);
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ code: 'LinkInvalid', details: { problem: 'used' } });
    expect((await policyCall(c.code, 100)).json().details.problem).toBe('used');
    const [audit] = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'signature_set'))
      .limit(1);
    expect(audit).toMatchObject({ actorId: doctorId, targetId: doctorId, outcome: 'success' });
    expect(audit!.details).toEqual({ via: 'code' });
  });

  it('refuses expired and forged codes without changing anything', async () => {
    const c = await issueCode();
    const key = await uploadWithCode(c.code, png(500));
    const before = (await t.as(doctor).get('signature/mine')).json();
    t.clock.advance(10 * 60 * 1000 + 1000);
    try {
      const res = await setByCode(c.code, key);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'LinkInvalid', details: { problem: 'expired' } });
      expect((await policyCall(c.code, 500)).json().details.problem).toBe('expired');
    } finally {
      t.clock.advance(-(10 * 60 * 1000 + 1000));
    }
    for (const forged of [`${c.code.slice(0, -2)}xx`, 'A'.repeat(43)]) {
      const res = await setByCode(forged, key);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'LinkInvalid', details: { problem: 'invalid' } });
    }
    expect((await t.call('POST', 'signature', { body: { code: 'short', url: key } })).json().code).toBe(
      'ValidationError',
    );
    expect((await t.as(doctor).get('signature/mine')).json()).toEqual(before);
  });

  it('a new code ends the previous one', async () => {
    const first = await issueCode();
    await issueCode();
    expect((await policyCall(first.code, 100)).json()).toMatchObject({ code: 'LinkInvalid' });
  });

  it("cannot point at a key it did not upload, nor set another account's signature", async () => {
    const mine = await issueCode(doctor);
    const theirs = await issueCode(tech);
    const techKey = await uploadWithCode(theirs.code, png(300));
    // doctor's code with tech's code upload, an account upload, and paths of the caller's choosing
    const account = await t.as(doctor).get('policies/images?contentType=image/png&size=300');
    const accountKey = (account.json() as UploadPolicy).key;
    for (const url of [techKey, accountKey, 'uploads/images/../../jwt-secret', 'studies/x.dcm']) {
      const res = await setByCode(mine.code, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'notYours' } });
    }
    // The refused attempts did not spend the code; tech's code sets tech's signature only.
    expect((await policyCall(mine.code, 100)).statusCode).toBe(200);
    const doctorBefore = (await t.as(doctor).get('signature/mine')).json();
    expect((await setByCode(theirs.code, techKey)).statusCode).toBe(200);
    expect((await t.as(doctor).get('signature/mine')).json()).toEqual(doctorBefore);
    expect((await t.as(tech).get('signature/mine')).json().signature).not.toBeNull();
  });

  it('accepts only a PNG of at most 1 MB', async () => {
    const c = await issueCode();
    for (const [size, type, code] of [
      [MB + 1, 'image/png', 'FileTooLarge'],
      [100, 'image/jpeg', 'FileTypeNotAllowed'],
      [100, 'application/pdf', 'FileTypeNotAllowed'],
    ] as const) {
      const res = await policyCall(c.code, size, type);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(code);
    }
    const ok = (await policyCall(c.code, MB)).json() as UploadPolicy;
    expect(ok.maxBytes).toBe(MB);
    expect(ok.accept).toEqual(['image/png']);
    // A file that is not a PNG behind a PNG key is refused when it is handed in.
    const p = (await policyCall(c.code, 100)).json() as UploadPolicy;
    await t.app.inject({ method: 'PUT', url: p.upload.url, headers: p.upload.headers, payload: Buffer.alloc(100, 1) });
    const res = await setByCode(c.code, p.key);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'typeMismatch' } });
  });
});

describe('signature on the desktop', () => {
  it('sets an uploaded image of the caller, replaces and removes it, with audit rows', async () => {
    const p = (await t.as(tech).get('policies/images?contentType=image/png&size=400')).json() as UploadPolicy;
    await t.app.inject({ method: 'PUT', url: p.upload.url, headers: p.upload.headers, payload: png(400) });
    const set = await t.as(tech).put('signature/mine', { url: p.key });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().signature).toMatch(/^\/yyp\/api\/v1\/blobs\/download/);
    // doctor cannot take tech's upload
    const stolen = await t.as(doctor).put('signature/mine', { url: p.key });
    expect(stolen.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'notYours' } });
    const removed = await t.as(tech).del('signature/mine');
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ signature: null, updatedAt: null });
    expect(await t.blobs.size(p.key)).toBeNull();
    const techId = (await t.as(tech).get('accounts/me')).json().id as string;
    const rows = await t.db.database.db.select().from(auditLogs).where(eq(auditLogs.targetId, techId));
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['signature_set', 'signature_remove']));
    expect((await t.call('GET', 'signature/mine')).statusCode).toBe(401);
  });

  it('refuses an image over 1 MB even though report images may be larger', async () => {
    const size = MB + 10;
    const p = (await t.as(tech).get(`policies/images?contentType=image/png&size=${size}`)).json() as UploadPolicy;
    await t.app.inject({ method: 'PUT', url: p.upload.url, headers: p.upload.headers, payload: png(size) });
    const res = await t.as(tech).put('signature/mine', { url: p.key });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('FileTooLarge');
  });
});
