import type { GlobalConfigValues } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { makeHospital } from '../../test/factories-reports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/** GET global-configs/query and PUT global-configs (issue 27), on both databases. */
let t: TestApp;
let tok: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ tok } = await makeHospital(t, ['doctor', 'groupadmin', 'teleadmin', 'admin']));
});
afterAll(async () => {
  await t.close();
});

describe('global configs', () => {
  it('reads unset keys as null for any signed-in user, and only the keys asked', async () => {
    const res = await t.as(tok.doctor!).get('global-configs/query?keys=helpUrl,supportPhone');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ helpUrl: null, supportPhone: null });
    expect((await t.call('GET', 'global-configs/query?keys=helpUrl')).statusCode).toBe(401);
  });

  it('refuses an unknown key, an empty list and a missing one with 400', async () => {
    for (const q of ['keys=helpUrl,secretKey', 'keys=', 'keys=,', '']) {
      const res = await t.as(tok.doctor!).get(`global-configs/query?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ValidationError' });
    }
  });

  it('is set by a platform admin only, audited, and read by everyone', async () => {
    const change = {
      helpUrl: 'https://help.example.org/yyp',
      supportPhone: '+86 10-6500 1234',
      supportEmail: 'support@example.org',
      announcement: '系统将于周日 02:00 维护。',
    };
    for (const who of ['doctor', 'groupadmin', 'teleadmin']) {
      expect((await t.as(tok[who]!).put('global-configs', change)).statusCode, who).toBe(403);
    }
    const res = await t.as(tok.admin!).put('global-configs', change);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(change);
    const read = await t.as(tok.teleadmin!).get('global-configs/query?keys=announcement,helpUrl');
    expect(read.json()).toEqual({ announcement: change.announcement, helpUrl: change.helpUrl });
    const rows = await t.db.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'platform.global_config'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actorUsername).toBe('admin');
    expect(rows[0]!.details).toMatchObject({ changes: { helpUrl: { from: null, to: change.helpUrl } } });
  });

  it('refuses a value that breaks its key’s rule and changes nothing', async () => {
    const bad: Record<string, unknown>[] = [
      { helpUrl: 'javascript:alert(1)' },
      { helpUrl: 'https://ok.example.org', supportEmail: 'not-an-address' },
      { supportPhone: 'call me' },
      { announcement: 'x'.repeat(501) },
      { unknownKey: 'x' },
      {},
    ];
    for (const body of bad) {
      const res = await t.as(tok.admin!).put('global-configs', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const all = (
      await t.as(tok.doctor!).get('global-configs/query?keys=helpUrl,supportPhone,supportEmail,announcement')
    ).json() as GlobalConfigValues;
    expect(all.helpUrl).toBe('https://help.example.org/yyp');
    expect(all.supportEmail).toBe('support@example.org');
  });

  it('clears a key set to null and keeps the others', async () => {
    const res = await t.as(tok.admin!).put('global-configs', { announcement: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ announcement: null, helpUrl: 'https://help.example.org/yyp' });
    expect((await t.as(tok.doctor!).get('global-configs/query?keys=announcement')).json()).toEqual({
      announcement: null,
    });
  });
});
