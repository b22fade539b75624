import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/schema.js';
import { signIn, type BuiltMember } from '../test/factories.js';
import { startWithStaff } from '../test/factories-platform.js';
import type { TestApp } from '../test/harness.js';

/**
 * Issue 19 §8: audit rows cannot be changed or removed through the connection the server itself
 * uses (migration 0023's triggers), whatever statement reaches it: UPDATE, DELETE or TRUNCATE,
 * inside a transaction or not. New rows are still written.
 */
let t: TestApp;
let staff: Record<'doctor' | 'senior', BuiltMember>;
const db = () => t.db.database.db;
const snapshot = () => db().select().from(auditLogs).orderBy(asc(auditLogs.id));

beforeAll(async () => {
  // Rows written by the app: a login (the doctor's, as it is built), and a failed one.
  ({ t, ...staff } = await startWithStaff({}, ['doctor', 'senior']));
  const failed = await t.call('POST', 'accounts/login-in', {
    body: { username: staff.doctor.username, password: 'wrong-Pw-1' },
  });
  expect(failed.statusCode).toBe(401);
});
afterAll(async () => {
  await t.close();
});

/** The statement fails, with the trigger's reason somewhere in its error chain. */
async function refused(run: () => Promise<unknown>): Promise<void> {
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'the statement was expected to fail').toBeInstanceOf(Error);
  let text = '';
  for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause) text += ` ${e.message}`;
  expect(text).toContain('append-only');
}

describe('audit_logs is append-only for the server', () => {
  it('has rows written by the app to protect', async () => {
    const rows = await snapshot();
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['account.login']));
    expect(rows.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses UPDATE, DELETE and TRUNCATE, and the rows stay as they were', async () => {
    const before = await snapshot();
    const login = before.find((r) => r.action === 'account.login')!;
    await refused(() => db().update(auditLogs).set({ outcome: 'success', actorUsername: 'nobody' }));
    await refused(() => db().update(auditLogs).set({ details: null }).where(eq(auditLogs.id, login.id)));
    await refused(() => db().delete(auditLogs).where(eq(auditLogs.id, login.id)));
    await refused(() => db().delete(auditLogs));
    await refused(() => db().execute(sql`truncate table audit_logs`));
    await refused(() => db().execute(sql`delete from audit_logs where action like 'account.%'`));
    expect(await snapshot()).toEqual(before);
  });

  it('refuses them inside a transaction as well, which then rolls back whole', async () => {
    const before = await snapshot();
    await refused(() =>
      db().transaction(async (tx) => {
        await tx.insert(auditLogs).values({ action: 'test.smuggled', outcome: 'success' });
        await tx.delete(auditLogs).where(eq(auditLogs.action, 'account.login'));
      }),
    );
    await refused(() => db().transaction((tx) => tx.execute(sql`truncate audit_logs`)));
    expect(await snapshot()).toEqual(before);
  });

  it('still takes new rows', async () => {
    const before = (await snapshot()).length;
    await signIn(t, staff.senior);
    expect((await snapshot()).length).toBeGreaterThan(before);
  });
});
