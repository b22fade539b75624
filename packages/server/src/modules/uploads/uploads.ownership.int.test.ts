import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { exams } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import { makeMember, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { makeOrganizationAdmin, SIGNED_OUT, startUploadApp, TECHNICIAN } from './uploads.fixture.js';
import { listenOnLoopback, TUS_FILES as FILES, uploadClient } from '../../test/tus-client.js';

/**
 * Issue 19 item 1: a tus upload answers only to the upload session that created it; another
 * session (another account's, another upload-link opening's, another organization's) gets 404 and
 * changes nothing. The Location header never comes from X-Forwarded-* unless TRUST_PROXY says so.
 */
let t: TestApp;
let base: string;
let radId: string;
let teleId: string;
const { api, tus, patch, create, offsetOf } = uploadClient(() => base);

beforeAll(async () => {
  // The accounts the cases sign in as (t.login's default password): a hospital's radiology with
  // its admin and two accounts that may upload into it (tech, and registrar holding the
  // technician's actions too); another group's organization with its admin.
  const { rad, ...app } = await startUploadApp('放射科');
  ({ t, base } = app);
  radId = rad.bucketId;
  const registrar = ['exam_get', 'registry_create', ...TECHNICIAN] as const;
  await makeMember(t, radId, { username: 'registrar', actions: registrar, ...SIGNED_OUT });
  await makeOrganizationAdmin(t, rad, 'groupadmin');
  const tele = await makeOrganization(t);
  teleId = tele.bucketId;
  await makeOrganizationAdmin(t, tele, 'teleadmin');
});
afterAll(async () => {
  await t.close();
});

async function linkSession(admin: string, bucketId: string): Promise<string> {
  const link = await api('POST', `buckets/${bucketId}/upload/token`, admin);
  const session = await api('POST', 'uploads/by-token', undefined, { token: link.json.token });
  expect(session.status).toBe(201);
  return session.json.sessionToken as string;
}

describe('tus uploads belong to the upload session that created them', () => {
  it('refuses every other session with 404 and changes nothing; the owner, with fresh credentials too, still can', async () => {
    const tech = await t.login('tech');
    const owner = (await api('POST', `buckets/${radId}/studies/upload`, tech, {})).json as {
      uploadId: string;
      sessionToken: string;
    };
    const study = generateStudy({ modality: 'CT', rows: 64, columns: 64, patientId: 'OWN-1' });
    const bytes = Buffer.from(study.instances[0]!.bytes);
    const half = Math.floor(bytes.length / 2);
    const url = await create(owner.sessionToken, bytes.length, 'ct.dcm');
    expect((await patch(url, owner.sessionToken, 0, bytes.subarray(0, half))).status).toBe(204);

    const intruders = {
      // another account that may upload into the same organization
      otherAccount: (await api('POST', `buckets/${radId}/studies/upload`, await t.login('registrar'), {})).json
        .sessionToken as string,
      // another upload-link opening into the same organization
      sameOrgLink: await linkSession(await t.login('groupadmin'), radId),
      // another tenant's upload link
      otherTenantLink: await linkSession(await t.login('teleadmin'), teleId),
    };
    const partial = path.join(t.blobDir, 'uploads', url.split('/').pop()!);
    for (const [who, session] of Object.entries(intruders)) {
      expect((await tus('HEAD', url, session)).status, who).toBe(404);
      expect((await tus('GET', url, session)).status, who).toBe(404);
      // the finishing call: would complete the file and ingest it
      expect((await patch(url, session, half, bytes.subarray(half))).status, who).toBe(404);
      expect((await tus('DELETE', url, session)).status, who).toBe(404);
      expect(await offsetOf(url, owner.sessionToken)).toBe(half);
      expect(fs.statSync(partial).size).toBe(half);
      const summary = await api('POST', 'uploads/summary', undefined, { sessionToken: session });
      expect(summary.json, who).toMatchObject({ stored: 0, duplicates: 0, skipped: [], examIds: [] });
    }
    const stored = await t.db.database.db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    expect(stored).toEqual([]);

    // The owner's account refreshes its credentials: the same upload session, so the file resumes.
    const fresh = await api(
      'GET',
      `buckets/${radId}/studies/refresh-upload-credentials?uploadId=${owner.uploadId}&delta=600`,
      tech,
    );
    const freshToken = fresh.json.sessionToken as string;
    expect(freshToken).not.toBe(owner.sessionToken);
    expect(await offsetOf(url, freshToken)).toBe(half);
    expect((await patch(url, freshToken, half, bytes.subarray(half))).status).toBe(204);
    expect(fs.existsSync(partial)).toBe(false);
    const done = await api('POST', 'exams/post-upload', undefined, { sessionToken: owner.sessionToken });
    expect(done.json).toMatchObject({ stored: 1, skipped: [] });
    const [exam] = await t.db.database.db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    expect(exam).toMatchObject({ bucketId: radId, source: 'web' });
  });

  it('lets only the owner delete an upload in progress, and refuses a closed session more data', async () => {
    const link = await linkSession(await t.login('groupadmin'), radId);
    const url = await create(link, 1000, 'ct.dcm');
    expect((await patch(url, link, 0, Buffer.alloc(100, 1))).status).toBe(204);
    const tech = await t.login('tech');
    const other = (await api('POST', `buckets/${radId}/studies/upload`, tech, {})).json.sessionToken as string;
    expect((await tus('DELETE', url, other)).status).toBe(404);
    expect(await offsetOf(url, link)).toBe(100);
    expect((await tus('DELETE', url, link)).status).toBe(204);
    expect((await tus('HEAD', url, link)).status).toBe(404);

    const second = await create(link, 1000, 'ct.dcm');
    expect((await api('POST', 'exams/post-upload', undefined, { sessionToken: link })).status).toBe(200);
    expect((await patch(second, link, 0, Buffer.alloc(100, 1))).status).toBe(401);
    expect(await offsetOf(second, link)).toBe(0);
  });
});

describe('tus Location header', () => {
  const post = (origin: string, session: string, headers: Record<string, string>) =>
    fetch(`${origin}${FILES}`, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Session': session, 'Upload-Length': '10', ...headers },
    });
  const forwarded = { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' };

  async function other(options: { trustProxy?: string[] | boolean; publicBaseUrl?: string }) {
    const app = await startTestApp({ db: t.db, seed: false, ...options });
    return { app, origin: await listenOnLoopback(app) };
  }

  it('ignores X-Forwarded-Host and -Proto without TRUST_PROXY: the request’s own Host', async () => {
    const session = (await api('POST', `buckets/${radId}/studies/upload`, await t.login('tech'), {})).json
      .sessionToken as string;
    const res = await post(base, session, forwarded);
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(new RegExp(`^${base}${FILES}[0-9a-f]+$`));
  });

  it('follows X-Forwarded-Host and -Proto from a trusted proxy, and PUBLIC_BASE_URL above all', async () => {
    const trusted = await other({ trustProxy: ['127.0.0.1', '::1'] });
    const pub = await other({ trustProxy: true, publicBaseUrl: 'https://pacs.example.org' });
    try {
      const session = (await api('POST', `buckets/${radId}/studies/upload`, await t.login('tech'), {})).json
        .sessionToken as string;
      const viaProxy = await post(trusted.origin, session, forwarded);
      expect(viaProxy.status).toBe(201);
      expect(viaProxy.headers.get('location')).toMatch(new RegExp(`^https://evil.example${FILES}[0-9a-f]+$`));
      const configured = await post(pub.origin, session, forwarded);
      expect(configured.headers.get('location')).toMatch(new RegExp(`^https://pacs.example.org${FILES}[0-9a-f]+$`));
    } finally {
      await trusted.app.close();
      await pub.app.close();
    }
  });
});
