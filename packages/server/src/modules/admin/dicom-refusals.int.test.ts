import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { DicomRefusalPage } from '@yyp/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { startTestDimse } from '../../test/dimse.js';
import {
  joinOrganization,
  makeAccount,
  makeGroupMember,
  makeMember,
  makeModality,
  makeOrganization,
} from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * Issue 19 §8: refused DICOM associations are readable — every one by the platform admin, and
 * by a group's auditors those that concern the AE titles its organizations register.
 */
const run = promisify(execFile);
let t: TestApp;
let port: number;
let dimse: { close(): void; port: number };
const tokens: Record<string, string> = {};
let radiology: string;
let tele: string;
let renheGroup: string;
let teleGroup: string;

const echo = (aet: string, aec: string) => run('echoscu', ['-aet', aet, '-aec', aec, '127.0.0.1', String(port)]);

async function refusalRows(): Promise<number> {
  const rows = await t.db.database.db
    .select({ n: sql<number>`count(*)` })
    .from(auditLogs)
    .where(eq(auditLogs.action, 'dicom.association.refused'));
  return Number(rows[0]!.n);
}

/** The refusal is audited right after the reject PDU goes out: wait for its row. */
async function refusedBy(aet: string, aec: string): Promise<void> {
  const before = await refusalRows();
  await expect(echo(aet, aec)).rejects.toThrow();
  for (let i = 0; i < 100 && (await refusalRows()) === before; i++) await new Promise((r) => setTimeout(r, 30));
  expect(await refusalRows()).toBe(before + 1);
}

const platform = (token: string, body: unknown = {}) =>
  t.call('POST', 'admin/dicom-associations/page-query', { token, body });
const ofGroup = (token: string, groupId: string, body: unknown = {}) =>
  t.call('POST', `groups/${groupId}/dicom-associations/page-query`, { token, body });
const page = (res: { statusCode: number; json(): unknown; body: string }): DicomRefusalPage => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DicomRefusalPage;
};

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  dimse = await startTestDimse(t);
  port = dimse.port;
  // A hospital whose radiology registers the modality DEMO_MODALITY, with its group admin, an
  // auditor and a doctor; a teleradiology centre with its auditor; the platform admin.
  const rad = await makeOrganization(t, { name: '放射科' });
  radiology = rad.bucketId;
  renheGroup = rad.groupId;
  await makeModality(t, radiology, { aeTitle: 'DEMO_MODALITY', host: null, name: '演示 CT' });
  const centre = await makeOrganization(t, { name: '远程诊断中心' });
  tele = centre.bucketId;
  teleGroup = centre.groupId;
  const groupadmin = await makeGroupMember(t, renheGroup, 1);
  await joinOrganization(t, radiology, groupadmin.accountId, { level: 'admin', groupLevel: 1 });
  tokens.groupadmin = groupadmin.token;
  tokens.auditor = (await makeGroupMember(t, renheGroup, 9)).token;
  tokens.doctor = (await makeMember(t, radiology, { actions: ['exam_get', 'report_upsert'] })).token;
  tokens.teleauditor = (await makeGroupMember(t, teleGroup, 9)).token;
  tokens.admin = (await makeAccount(t, { username: 'admin', platformAdmin: true })).token;
  // The teleradiology centre registers a CT that may call only from 10.20.30.40.
  await makeModality(t, tele, { aeTitle: 'TELE_CT', host: '10.20.30.40', name: 'CT' });

  await refusedBy('STRANGER', 'YYP'); // unknown calling AE
  await refusedBy('DEMO_MODALITY', 'NOT_YYP'); // 仁和's modality, wrong called AE
  await refusedBy('TELE_CT', 'YYP'); // the centre's CT, from another address
  // A hostile peer's NUL in an AE field is still recorded (as '?').
  await t.services.archive.auditRefusedAssociation('EVIL\0AE', 'YYP', '::ffff:10.0.0.9', 'calling');
});
afterAll(async () => {
  dimse.close();
  await t.close();
});

describe('the platform admin', () => {
  it('reads every refusal, newest first: time, calling and called AE, peer address, reason, outcome', async () => {
    const { refusals, count } = page(await platform(tokens.admin!));
    expect(count).toBe(4);
    expect(refusals.map((r) => [r.callingAe, r.calledAe, r.reason])).toEqual([
      ['EVIL?AE', 'YYP', 'callingAe'],
      ['TELE_CT', 'YYP', 'callingHost'],
      ['DEMO_MODALITY', 'NOT_YYP', 'calledAe'],
      ['STRANGER', 'YYP', 'callingAe'],
    ]);
    expect(refusals[0]!.peerAddress).toBe('10.0.0.9');
    expect(refusals[3]).toMatchObject({ peerAddress: '127.0.0.1', outcome: 'denied', organization: null });
    expect(refusals[1]!.organization).toEqual({ id: tele, name: expect.any(String) });
    expect(refusals[2]!.organization).toMatchObject({ id: radiology, name: '放射科' });
    expect(Date.parse(refusals[0]!.at)).toBeGreaterThanOrEqual(Date.parse(refusals[3]!.at));
  });

  it('filters by part of an AE title (any case) and by time, and pages', async () => {
    expect(page(await platform(tokens.admin!, { aeTitle: 'strang' })).refusals.map((r) => r.callingAe)).toEqual([
      'STRANGER',
    ]);
    // The called AE title matches too.
    expect(page(await platform(tokens.admin!, { aeTitle: 'not_' })).refusals.map((r) => r.callingAe)).toEqual([
      'DEMO_MODALITY',
    ]);
    // A wildcard character is matched as itself.
    expect(page(await platform(tokens.admin!, { aeTitle: '%' })).count).toBe(0);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(page(await platform(tokens.admin!, { from: future })).count).toBe(0);
    expect(page(await platform(tokens.admin!, { to: future })).count).toBe(4);
    const second = page(await platform(tokens.admin!, { skip: 1, limit: 2 }));
    expect(second.count).toBe(4);
    expect(second.refusals.map((r) => r.callingAe)).toEqual(['TELE_CT', 'DEMO_MODALITY']);
  });

  it('answers 400 to bad filters', async () => {
    for (const body of [
      { limit: 0 },
      { limit: 500 },
      { skip: -1 },
      { from: 'yesterday' },
      { aeTitle: 'X'.repeat(17) },
    ]) {
      const res = await platform(tokens.admin!, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ValidationError' });
    }
  });

  it('is the only one to read them all; reading is itself audited', async () => {
    for (const u of ['auditor', 'doctor', 'groupadmin']) expect((await platform(tokens[u]!)).statusCode).toBe(403);
    const reads = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'audit.read'), eq(auditLogs.actorUsername, 'admin')));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads[0]!.details).toEqual({ log: 'dicom.association.refused' });
  });
});

describe("a group's auditor", () => {
  it("reads the refusals that name its organizations' AE titles, and no other", async () => {
    const renhe = page(await ofGroup(tokens.auditor!, renheGroup));
    expect(renhe.count).toBe(1);
    expect(renhe.refusals[0]).toMatchObject({
      callingAe: 'DEMO_MODALITY',
      calledAe: 'NOT_YYP',
      reason: 'calledAe',
      organization: { id: radiology, name: '放射科' },
    });
    const centre = page(await ofGroup(tokens.teleauditor!, teleGroup));
    expect(centre.refusals.map((r) => [r.callingAe, r.reason, r.organization?.id])).toEqual([
      ['TELE_CT', 'callingHost', tele],
    ]);
  });

  it('also reads earlier refusals of an AE title once its organization registers it', async () => {
    await makeModality(t, radiology, { aeTitle: 'STRANGER', host: null, name: 'New US' });
    const renhe = page(await ofGroup(tokens.auditor!, renheGroup));
    expect(renhe.refusals.map((r) => [r.callingAe, r.reason])).toEqual([
      ['DEMO_MODALITY', 'calledAe'],
      ['STRANGER', 'callingAe'],
    ]);
    expect(page(await ofGroup(tokens.teleauditor!, teleGroup)).count).toBe(1);
  });

  it("cannot read another group's, nor can members without the auditor level", async () => {
    expect([403, 404]).toContain((await ofGroup(tokens.auditor!, teleGroup)).statusCode);
    expect([403, 404]).toContain((await ofGroup(tokens.teleauditor!, renheGroup)).statusCode);
    expect((await ofGroup(tokens.groupadmin!, renheGroup)).statusCode).toBe(403);
    expect((await ofGroup(tokens.doctor!, renheGroup)).statusCode).toBe(403);
    // The platform admin reads all of them through its own call, not a group's.
    expect([403, 404]).toContain((await ofGroup(tokens.admin!, renheGroup)).statusCode);
  });
});
