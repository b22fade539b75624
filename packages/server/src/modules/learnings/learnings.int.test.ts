import { Readable } from 'node:stream';
import fs from 'node:fs';
import path from 'node:path';
import { LEARNING_VIDEO_MAX_BYTES, type Learning, type LearningDetail, type LearningList } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, learnings } from '../../db/schema.js';
import { Signer } from '../../platform/signed.js';
import { makeAccount, makeMember, makeOrganization, type BuiltAccount } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { LearningsService } from './learnings.service.js';

/** The first bytes of an MP4 file (an ftyp box), then `size` bytes of counting so ranges are checkable. */
function mp4(size: number): Buffer {
  const head = Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0, ...Buffer.from('isomiso2')]);
  const body = Buffer.alloc(size - head.length);
  for (let i = 0; i < body.length; i++) body[i] = i % 251;
  return Buffer.concat([head, body]);
}
/** The first bytes of a WebM file: EBML header with DocType webm. */
function webm(): Buffer {
  const head = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]);
  return Buffer.concat([head, Buffer.from('webm'), Buffer.alloc(200, 7)]);
}

let t: TestApp;
let admin: BuiltAccount;
let doctor: BuiltAccount;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  admin = await makeAccount(t, { platformAdmin: true });
  const org = await makeOrganization(t);
  doctor = await makeMember(t, org.bucketId, { actions: ['exam_get'] });
});
afterAll(async () => {
  await t.close();
});

function upload(token: string, body: Buffer, contentType: string, query: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/yyp/api/v1/learnings?${new URLSearchParams(query).toString()}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: body,
  });
}

function blobFiles(): string[] {
  const dir = path.join(t.blobDir, 'learnings');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

async function auditRows(action: string, targetId: string) {
  return t.db.database.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.targetId, targetId)));
}

/** An MP4 whose moov/mvhd (version 0) says `seconds` at a timescale of 600, after its media data. */
function mp4Lasting(seconds: number): Buffer {
  const box = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + body.length);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body]);
  };
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(600, 12);
  mvhd.writeUInt32BE(600 * seconds, 16);
  return Buffer.concat([
    box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2', 'latin1')),
    box('mdat', Buffer.alloc(3000, 9)),
    box('moov', box('mvhd', mvhd)),
  ]);
}

describe('learning videos', () => {
  let published: Learning;
  let draft: Learning;
  const video = mp4(5000);

  it('lets the platform admin upload an MP4 and a WebM (recognized by their bytes), audited', async () => {
    const res = await upload(admin.token, video, 'video/mp4', {
      title: '阅片入门',
      description: '如何使用报告工作站',
      published: 'true',
      sortOrder: '1',
    });
    expect(res.statusCode, res.body).toBe(201);
    published = res.json<Learning>();
    expect(published).toMatchObject({ title: '阅片入门', contentType: 'video/mp4', size: 5000, published: true });
    const second = await upload(admin.token, webm(), 'video/webm', { title: 'Draft' });
    expect(second.statusCode, second.body).toBe(201);
    draft = second.json<Learning>();
    expect(draft).toMatchObject({ contentType: 'video/webm', published: false, sortOrder: 0, durationSeconds: null });
    // the counting bytes after ftyp hold no moov: the duration is not known
    expect(published.durationSeconds).toBeNull();
    const [row] = await auditRows('learning.create', published.id);
    expect(row).toMatchObject({ actorId: admin.accountId, outcome: 'success', targetType: 'learning' });
  });

  it('refuses a file whose bytes are no video, or not the type it claims, and keeps nothing of it', async () => {
    const before = blobFiles().length;
    const html = await upload(admin.token, Buffer.from('<html><script>alert(1)</script></html>'), 'video/mp4', {
      title: 'fake',
    });
    expect(html.statusCode).toBe(400);
    expect(html.json()).toMatchObject({ code: 'FileTypeNotAllowed' });
    const claimed = await upload(admin.token, webm(), 'video/mp4', { title: 'wrong type' });
    expect(claimed.json()).toMatchObject({ code: 'FileTypeNotAllowed' });
    const png = await upload(admin.token, Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png', { title: 'png' });
    expect(png.statusCode).toBe(400);
    expect(png.json()).toMatchObject({ code: 'FileTypeNotAllowed' });
    const empty = await upload(admin.token, Buffer.alloc(0), 'video/webm', { title: 'empty' });
    expect(empty.statusCode).toBe(400);
    expect(blobFiles().length).toBe(before);
    const rows = await t.db.database.db.select().from(learnings);
    expect(rows.map((r) => r.title).sort()).toEqual(['Draft', '阅片入门']);
  });

  it('refuses a video over the size limit, declared or streamed, and keeps nothing of it', async () => {
    const declared = await t.app.inject({
      method: 'POST',
      url: '/yyp/api/v1/learnings?title=big',
      headers: {
        authorization: `Bearer ${admin.token}`,
        'content-type': 'video/mp4',
        'content-length': String(LEARNING_VIDEO_MAX_BYTES + 1),
      },
      payload: video,
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ code: 'PayloadTooLarge' });
    // A body with no declared length is counted as it streams (a service with a 1000-byte limit).
    const small = new LearningsService(t.db.database.db, t.blobs, new Signer(Buffer.alloc(32, 1)), t.clock, 1000);
    const account = (await t.db.database.db.query.accounts.findFirst({
      where: (a, { eq }) => eq(a.id, admin.accountId),
    }))!;
    const before = blobFiles().length;
    await expect(
      small.upload(
        account,
        { title: 'stream', description: '', published: false, sortOrder: 0 },
        { contentType: 'video/mp4' },
        Readable.from([video.subarray(0, 800), video.subarray(800, 1600)]),
        { ip: null, userAgent: null },
      ),
    ).rejects.toMatchObject({ code: 'PayloadTooLarge' });
    expect(blobFiles().length).toBe(before);
  });

  it('refuses every write to anyone but a platform admin', async () => {
    expect((await upload(doctor.token, video, 'video/mp4', { title: 'x' })).statusCode).toBe(403);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/yyp/api/v1/learnings/${published.id}`,
      headers: { authorization: `Bearer ${doctor.token}` },
      payload: { published: false },
    });
    expect(patch.statusCode).toBe(403);
    expect((await t.as(doctor.token).del(`learnings/${published.id}`)).statusCode).toBe(403);
    expect((await t.call('POST', 'learnings?title=x', { body: video })).statusCode).toBe(401);
    const [row] = await t.db.database.db.select().from(learnings).where(eq(learnings.id, published.id));
    expect(row?.published).toBe(true);
  });

  it('lists the published ones to anyone signed in, all of them to a platform admin, in order', async () => {
    const mine = await t.as(doctor.token).get('learnings/list');
    expect(mine.statusCode).toBe(200);
    expect(mine.json<LearningList>()).toMatchObject({ count: 1, items: [{ id: published.id }] });
    const all = await t.as(admin.token).get('learnings/list?limit=10');
    expect(all.json<LearningList>().items.map((i) => i.id)).toEqual([draft.id, published.id]);
    expect((await t.call('GET', 'learnings/list')).statusCode).toBe(401);
    expect((await t.as(doctor.token).get('learnings/list?limit=0')).statusCode).toBe(400);
  });

  it('shows a published video to a visitor, an unpublished one only to a platform admin', async () => {
    const visitor = await t.call('GET', `learnings/${published.id}`);
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json<LearningDetail>().videoUrl).toMatch(
      new RegExp(`^/yyp/api/v1/learnings/${published.id}/video\\?token=`),
    );
    expect((await t.call('GET', `learnings/${draft.id}`)).statusCode).toBe(404);
    expect((await t.as(doctor.token).get(`learnings/${draft.id}`)).statusCode).toBe(404);
    expect((await t.as(admin.token).get(`learnings/${draft.id}`)).statusCode).toBe(200);
    expect((await t.call('GET', 'learnings/no-such')).statusCode).toBe(404);
  });

  it('streams the video with HTTP Range: 200 whole, 206 partial, 416 past the end', async () => {
    const { videoUrl } = (await t.call('GET', `learnings/${published.id}`)).json<LearningDetail>();
    const whole = await t.app.inject({ method: 'GET', url: videoUrl });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({
      'accept-ranges': 'bytes',
      'content-type': 'video/mp4',
      'content-length': '5000',
    });
    expect(whole.rawPayload.equals(video)).toBe(true);
    const part = await t.app.inject({ method: 'GET', url: videoUrl, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/5000');
    expect(part.rawPayload.equals(video.subarray(100, 200))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url: videoUrl, headers: { range: 'bytes=4990-' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(video.subarray(4990))).toBe(true);
    const past = await t.app.inject({ method: 'GET', url: videoUrl, headers: { range: 'bytes=5000-6000' } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */5000');
  });

  it('refuses a stream without a valid token, or for another video', async () => {
    expect((await t.call('GET', `learnings/${published.id}/video?token=forged.token`)).statusCode).toBe(403);
    expect((await t.call('GET', `learnings/${published.id}/video`)).statusCode).toBe(400);
    const { videoUrl } = (await t.as(admin.token).get(`learnings/${draft.id}`)).json<LearningDetail>();
    const token = new URL(videoUrl, 'http://x').searchParams.get('token')!;
    const other = await t.call('GET', `learnings/${published.id}/video?token=${encodeURIComponent(token)}`);
    expect(other.statusCode).toBe(403);
    // The admin's URL plays the draft; a visitor's URL of a video since unpublished plays nothing.
    expect((await t.app.inject({ method: 'GET', url: videoUrl })).statusCode).toBe(200);
  });

  it('lets the platform admin edit and unpublish, audited; a visitor then finds nothing', async () => {
    const { videoUrl } = (await t.call('GET', `learnings/${published.id}`)).json<LearningDetail>();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/yyp/api/v1/learnings/${published.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { title: '阅片入门（新版）', published: false, durationSeconds: 12 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Learning>()).toMatchObject({ title: '阅片入门（新版）', published: false, durationSeconds: 12 });
    const [row] = await auditRows('learning.update', published.id);
    expect(row?.details).toMatchObject({ changes: { published: { from: true, to: false } } });
    expect((await t.call('GET', `learnings/${published.id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: videoUrl })).statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/yyp/api/v1/learnings/${published.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { title: '' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('lets the platform admin delete one with its file, audited', async () => {
    const before = blobFiles().length;
    expect((await t.as(admin.token).del(`learnings/${draft.id}`)).statusCode).toBe(204);
    expect(blobFiles().length).toBe(before - 1);
    expect(await auditRows('learning.delete', draft.id)).toHaveLength(1);
    expect((await t.as(admin.token).del(`learnings/${draft.id}`)).statusCode).toBe(404);
  });

  it("records an MP4's duration from its moov/mvhd, even after the media data", async () => {
    const res = await upload(admin.token, mp4Lasting(95), 'video/mp4', { title: '一分半' });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json<Learning>();
    expect(made.durationSeconds).toBe(95);
    expect((await t.as(admin.token).del(`learnings/${made.id}`)).statusCode).toBe(204);
  });
});
