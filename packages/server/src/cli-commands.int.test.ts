import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-commands.js';
import { getDomainConfig } from './modules/domain/index.js';
import { accountByUsername } from './test/factories.js';
import { createTestDatabase, type TestDatabase } from './test/harness.js';

let db: TestDatabase;
const out: string[] = [];
const cli = (...argv: string[]) => runCli(db.database, argv, (line) => out.push(line));
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('CLI', () => {
  it('seeds the demo accounts once', async () => {
    await cli('seed-demo');
    expect(out.pop()).toMatch(/created: admin, doctor/);
    await cli('seed-demo');
    expect(out.pop()).toBe('demo accounts already exist');
  });

  it('creates a user, refusing a taken name and a too simple password', async () => {
    await cli('create-user', 'alice', '--name', 'Alice', '--password', 'Kestrel#481', '--platform-admin');
    const alice = await accountByUsername(db, 'alice');
    expect(alice).toMatchObject({ name: 'Alice', isPlatformAdmin: true, mustChangePassword: false });
    await expect(cli('create-user', 'alice', '--name', 'A', '--password', 'Kestrel#481')).rejects.toThrow(/taken/);
    await expect(cli('create-user', 'bob', '--name', 'Bob', '--password', 'simple')).rejects.toThrow(/password/);
    // One of the most common passwords (issue 19 §9), though it passes the ordinary policy.
    await expect(cli('create-user', 'bob', '--name', 'Bob', '--password', 'Password1!')).rejects.toThrow(/password/);
    await expect(cli('create-user', 'bad name', '--name', 'B', '--password', 'Kestrel#481')).rejects.toThrow(
      /username/,
    );
    expect(await accountByUsername(db, 'bob')).toBeUndefined();
  });

  it('sets domain fields with types checked, changing nothing on bad input', async () => {
    await cli('domain', 'set', 'allowRegistration=true', 'maxInactiveMinutes=30', 'displayName=My Hospital');
    expect(await getDomainConfig(db.database.db)).toMatchObject({
      allowRegistration: true,
      maxInactiveMinutes: 30,
      displayName: 'My Hospital',
    });
    await expect(cli('domain', 'set', 'maxInactiveMinutes=-1')).rejects.toThrow(/maxInactiveMinutes/);
    await expect(cli('domain', 'set', 'allowRegistration=maybe')).rejects.toThrow(/true or false/);
    await expect(cli('domain', 'set', 'bogus=1')).rejects.toThrow();
    expect((await getDomainConfig(db.database.db)).maxInactiveMinutes).toBe(30);
    await cli('domain', 'get');
    expect(JSON.parse(out.pop()!)).toMatchObject({ id: 'default', displayName: 'My Hospital' });
  });

  it('prints usage for an unknown command', async () => {
    await expect(cli('bogus')).rejects.toThrow(/usage/);
  });

  it("shows, sets and ends an organization's plan, refusing bad values", async () => {
    await cli('plan', 'get', 'rh-pe');
    expect(JSON.parse(out.pop()!)).toMatchObject({ kind: 'period', quota: 1000, isPrivate: true, blocked: null });
    await cli('plan', 'set', 'RH-PE', 'kind=oneTime', 'quota=5', 'expires=2030-01-31', 'reset');
    expect(JSON.parse(out.pop()!)).toMatchObject({
      kind: 'oneTime',
      quota: 5,
      used: 0,
      expiresAt: '2030-01-31T15:59:59.000Z',
    });
    await expect(cli('plan', 'set', 'RH-PE', 'kind=weekly')).rejects.toThrow(/kind/);
    await expect(cli('plan', 'set', 'RH-PE', 'quota=-3')).rejects.toThrow(/quota/);
    await expect(cli('plan', 'get', 'NOPE')).rejects.toThrow(/no organization/);
    await cli('plan', 'end', 'RH-PE');
    expect(JSON.parse(out.pop()!)).toMatchObject({ kind: null, quota: null, blocked: 'SubscriptionExpired' });
  });
});
