import crypto from 'node:crypto';
import type { EntryToken, User, WebSecret } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { joinGroup, makeAccount, makeMember } from '../../test/factories.js';
import { makeHospital } from '../../test/factories-reports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { setDisabled } from '../accounts/index.js';
import { nonceUsed } from './entries.store.js';
import { encodeEntry } from './entry-signing.js';

/**
 * GET tokens: a hospital system's signed entry (/ss-login t, /go data) for a session, on both
 * databases. Tampering, another key, an old or future timestamp, a replay, an account outside the
 * group (or disabled, or a platform admin) and an unknown group are refused and audited.
 */
let t: TestApp;
let tok: Record<string, string> = {};
let renhe = '';
let teleGroup = '';
let radiology = '';
let secret = '';
const nowS = () => Math.floor(t.clock.now().getTime() / 1000);
const nonce = () => crypto.randomBytes(16).toString('base64url');

const payload = (over: Record<string, unknown> = {}) => ({
  groupId: renhe,
  username: 'doctor',
  timestamp: nowS(),
  nonce: nonce(),
  ...over,
});
const exchange = (signed: string, type = 'ss-login', extra = '') =>
  t.call('GET', `tokens?signature=${encodeURIComponent(signed)}&type=${type}${extra}`);

/** The refusal of an entry: always 403 LinkInvalid, with the reason told. */
async function refused(signed: string, reason: string, type = 'ss-login') {
  const res = await exchange(signed, type);
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toMatchObject({ code: 'LinkInvalid', details: { reason } });
  return res;
}

async function entryAudits(outcome: string) {
  return t.db.database.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, 'account.entry'), eq(auditLogs.outcome, outcome)));
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const h = await makeHospital(t, ['doctor', 'senior', 'groupadmin', 'teleadmin', 'admin']);
  ({ tok, groupId: renhe, teleGroupId: teleGroup, radiology } = h);
  const rotated = (await t.as(tok.groupadmin!).post(`groups/${renhe}/integration/web-secret`)).json() as WebSecret;
  secret = rotated.secret;
});
afterAll(async () => {
  await t.close();
});

describe('GET tokens with a signed entry', () => {
  it('opens a session (loginType sso) of the account the group vouches for, and lands where it says', async () => {
    const examId = crypto.randomUUID();
    const target = `/studies/${examId}/reports/${examId}`;
    const p = payload({ target });
    const signed = encodeEntry(secret, p);
    const res = await exchange(signed, 'go', '&source=HIS-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const token = res.json() as EntryToken;
    expect(token).toMatchObject({ loginType: 'sso', username: 'doctor', target });
    expect(token.expires).toBeGreaterThan(nowS());
    // The session works like any other.
    const me = await t.as(token.accessToken).get('accounts/me');
    expect(me.statusCode).toBe(200);
    expect((me.json() as User).username).toBe('doctor');
    expect((await t.as(token.accessToken).get(`buckets/${radiology}`)).statusCode).toBe(200);
    // Audited without the signature or the payload.
    const rows = (await entryAudits('success')).filter((r) => r.targetId === renhe);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorUsername: 'doctor', outcome: 'success' });
    expect(rows[0]!.details).toMatchObject({ type: 'go', source: 'HIS-1', target });
    const written = JSON.stringify(rows[0]);
    expect(written).not.toContain(signed);
    expect(written).not.toContain(JSON.parse(Buffer.from(signed, 'base64url').toString()).signature);
    expect(await nonceUsed(t.db.database.db, renhe, p.nonce)).toBe(true);
  });

  it('lands on the study list when the payload names no target', async () => {
    const res = await exchange(encodeEntry(secret, payload()));
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as EntryToken).target).toBe('/studies');
  });

  it('refuses a tampered payload', async () => {
    const signed = encodeEntry(secret, payload());
    const json = JSON.parse(Buffer.from(signed, 'base64url').toString()) as Record<string, unknown>;
    // Another account, the signature kept.
    await refused(Buffer.from(JSON.stringify({ ...json, username: 'senior' })).toString('base64url'), 'invalid');
    // A later timestamp, the signature kept.
    const later = { ...json, timestamp: (json.timestamp as number) + 1 };
    await refused(Buffer.from(JSON.stringify(later)).toString('base64url'), 'invalid');
    // A target added.
    const moved = { ...json, target: '/studies' };
    await refused(Buffer.from(JSON.stringify(moved)).toString('base64url'), 'invalid');
    // A signature flipped, and no base64url JSON at all.
    const flipped = { ...json, signature: (json.signature as string).replace(/^./, (c) => (c === '0' ? '1' : '0')) };
    await refused(Buffer.from(JSON.stringify(flipped)).toString('base64url'), 'invalid');
    await refused('not*base64', 'invalid');
    await refused(Buffer.from('{"groupId":').toString('base64url'), 'invalid');
    // A target that is no path of the app is refused even when signed.
    await refused(encodeEntry(secret, payload({ target: 'https://evil.example/' })), 'invalid');
    // The untouched payload still works: nothing above used its nonce.
    expect((await exchange(signed)).statusCode).toBe(200);
  });

  it("refuses a payload signed with another key, and with the group's previous secret after a rotation", async () => {
    await refused(encodeEntry(crypto.randomBytes(32).toString('base64url'), payload()), 'invalid');
    const otherSecret = (
      (await t.as(tok.groupadmin!).post(`groups/${renhe}/integration/web-secret`)).json() as WebSecret
    ).secret;
    // The old secret stopped working with the rotation; the new one works.
    await refused(encodeEntry(secret, payload()), 'invalid');
    expect((await exchange(encodeEntry(otherSecret, payload()))).statusCode).toBe(200);
    secret = otherSecret;
  });

  it('refuses an entry older or further ahead than five minutes', async () => {
    await refused(encodeEntry(secret, payload({ timestamp: nowS() - 301 })), 'expired');
    await refused(encodeEntry(secret, payload({ timestamp: nowS() + 301 })), 'expired');
    expect((await exchange(encodeEntry(secret, payload({ timestamp: nowS() - 299 })))).statusCode).toBe(200);
    expect((await exchange(encodeEntry(secret, payload({ timestamp: nowS() + 299 })))).statusCode).toBe(200);
  });

  it('opens one session per nonce: a replay is refused, also when two race', async () => {
    const signed = encodeEntry(secret, payload());
    expect((await exchange(signed)).statusCode).toBe(200);
    await refused(signed, 'used');
    await refused(signed, 'used', 'go');
    // Another payload with the same nonce is the same entry.
    const json = JSON.parse(Buffer.from(signed, 'base64url').toString()) as { nonce: string };
    await refused(encodeEntry(secret, payload({ nonce: json.nonce, username: 'senior' })), 'used');
    const racing = encodeEntry(secret, payload());
    const answers = await Promise.all([exchange(racing), exchange(racing), exchange(racing)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 403, 403]);
  });

  it('refuses an account outside the group, a disabled one, a platform admin and an unknown name', async () => {
    await refused(encodeEntry(secret, payload({ username: 'teleadmin' })), 'account');
    const disabled = await makeMember(t, radiology, { username: 'entry-disabled' });
    expect((await exchange(encodeEntry(secret, payload({ username: disabled.username })))).statusCode).toBe(200);
    await setDisabled(t.db.database.db, disabled.accountId, 1, t.clock.now());
    await refused(encodeEntry(secret, payload({ username: disabled.username })), 'account');
    const admin = await makeAccount(t, { username: 'entry-platform-admin', platformAdmin: true });
    await joinGroup(t, renhe, admin.accountId, 0);
    await refused(encodeEntry(secret, payload({ username: admin.username })), 'account');
    await refused(encodeEntry(secret, payload({ username: 'admin' })), 'account');
    await refused(encodeEntry(secret, payload({ username: 'nobody-here' })), 'account');
  });

  it('refuses an unknown group and a group with no secret alike', async () => {
    await refused(encodeEntry(secret, payload({ groupId: 'no-such-group' })), 'invalid');
    // The teleradiology group has set no secret: no entry of it is valid, whatever the key.
    await refused(encodeEntry(secret, payload({ groupId: teleGroup, username: 'teleadmin' })), 'invalid');
  });

  it('answers 400 to a call without the signed entry or with an unknown type, and audits every refusal', async () => {
    expect((await t.call('GET', 'tokens?type=go')).statusCode).toBe(400);
    expect((await exchange(encodeEntry(secret, payload()), 'password')).statusCode).toBe(400);
    const denied = await entryAudits('denied');
    const reasons = new Set(denied.map((r) => (r.details as { reason: string }).reason));
    expect(reasons).toEqual(new Set(['invalid', 'expired', 'used', 'account']));
    // No signature (64 hex digits) and no payload is written.
    expect(JSON.stringify(denied)).not.toMatch(/[0-9a-f]{64}/);
  });
});
