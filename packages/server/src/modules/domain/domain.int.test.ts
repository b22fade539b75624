import { defaultDomainConfig } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { makeAccount, makeGroupMember, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
const tok: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // The platform admin, and a group's admin (who is not one).
  tok.admin = (await makeAccount(t, { username: 'admin', platformAdmin: true })).token;
  const { groupId } = await makeOrganization(t);
  tok.groupadmin = (await makeGroupMember(t, groupId, 1, { username: 'groupadmin' })).token;
});
afterAll(async () => {
  await t.close();
});

describe('GET domain', () => {
  it('answers every field of spec 000 §1 without a token', async () => {
    const res = await t.call('GET', 'domain');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(defaultDomainConfig).sort());
    expect(res.json().maxInactiveMinutes).toBe(0);
  });
});

describe('PUT domain', () => {
  it('is refused for anyone but a platform admin, and changes nothing', async () => {
    const token = tok.groupadmin!;
    const res = await t.call('PUT', 'domain', { token, body: { displayName: 'hacked' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('InsufficientPermissions');
    expect((await t.call('GET', 'domain')).json().displayName).not.toBe('hacked');
    expect((await t.call('PUT', 'domain', { body: { displayName: 'hacked' } })).statusCode).toBe(401);
  });

  it('changes the given fields for a platform admin and audits it', async () => {
    const token = tok.admin!;
    const res = await t.call('PUT', 'domain', {
      token,
      body: { maxInactiveMinutes: 15, displayName: '云影像', requireStrongPwd: true },
    });
    expect(res.statusCode).toBe(200);
    const after = (await t.call('GET', 'domain')).json();
    expect(after).toMatchObject({
      maxInactiveMinutes: 15,
      displayName: '云影像',
      requireStrongPwd: true,
      id: 'default',
    });
    const audit = await t.db.database.db.select().from(auditLogs);
    expect(
      audit.some((r) => r.action === 'domain.update' && r.outcome === 'success' && r.actorUsername === 'admin'),
    ).toBe(true);
    expect(audit.some((r) => r.action === 'permission.denied' && r.actorUsername === 'groupadmin')).toBe(true);
  });

  it('stores the footer sanitised and takes pictures by http(s) address or site path', async () => {
    const token = tok.admin!;
    const res = await t.call('PUT', 'domain', {
      token,
      body: {
        footerHtml:
          '© 仁和医院 <a href="https://beian.miit.gov.cn/" onclick="steal()">京ICP备1号</a><script>alert(1)</script>',
        logo: '/brand/logo.png',
        bgImgUrl: 'https://cdn.example.org/bg.jpg',
      },
    });
    expect(res.statusCode).toBe(200);
    const domain = (await t.call('GET', 'domain')).json();
    expect(domain.footerHtml).toBe(
      '© 仁和医院 <a href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer">京ICP备1号</a>',
    );
    expect(domain).toMatchObject({ logo: '/brand/logo.png', bgImgUrl: 'https://cdn.example.org/bg.jpg' });
    await t.call('PUT', 'domain', { token, body: { footerHtml: '', logo: '', bgImgUrl: '' } });
  });

  it('refuses bad values and unknown fields, changing nothing', async () => {
    const token = tok.admin!;
    const before = (await t.call('GET', 'domain')).json();
    for (const body of [
      { maxInactiveMinutes: -1 },
      { maxInactiveMinutes: 'ten' },
      { allowRegistration: 'yes' },
      { id: 'other' },
      { nonsense: 1 },
      { displayName: '' },
      { logo: 'javascript:alert(1)' },
      { bgImgUrl: 'https://x.example/a.png") ; background:url("https://evil' },
      { logo: '//evil.example/logo.png' },
      { footerHtml: 'x'.repeat(4097) },
    ]) {
      const res = await t.call('PUT', 'domain', { token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('ValidationError');
    }
    expect((await t.call('GET', 'domain')).json()).toEqual(before);
  });
});
