import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../db/schema.js';
import { makeAccount, unique } from '../test/factories.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { AppError } from './errors.js';
import { idempotencyKeyOf, idempotent, requestHash } from './idempotency.js';

/** The Idempotency-Key helper of money calls (issue 24) on PGlite and PostgreSQL. */
let t: TestApp;
let accountId: string;
let otherId: string;
const db = () => t.db.database.db;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  accountId = (await makeAccount(t, { signIn: false })).accountId;
  otherId = (await makeAccount(t, { signIn: false })).accountId;
});
afterAll(async () => {
  await t.close();
});

/** A piece of work that counts its runs and answers its run number. */
function counter() {
  let runs = 0;
  return {
    work: async () => {
      runs += 1;
      await new Promise((r) => setTimeout(r, 20));
      return { run: runs, at: '2026-11-22T08:00:00.000Z' };
    },
    runs: () => runs,
  };
}

describe('idempotent', () => {
  it('stores the first answer and gives it again for the same request', async () => {
    const key = unique('key-');
    const c = counter();
    const body = { amountFen: 100, groupId: 'g1', note: { a: 1, b: 2 } };
    const first = await idempotent(db(), { accountId, key, call: 'POST credits/top-up', body }, c.work);
    // the same body with its keys in another order is the same request
    const again = await idempotent(
      db(),
      { accountId, key, call: 'POST credits/top-up', body: { note: { b: 2, a: 1 }, groupId: 'g1', amountFen: 100 } },
      c.work,
    );
    expect(first).toEqual({ run: 1, at: '2026-11-22T08:00:00.000Z' });
    expect(again).toEqual(first);
    expect(c.runs()).toBe(1);
    const rows = await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ accountId, status: 200, requestHash: requestHash('POST credits/top-up', body) });
  });

  it('refuses the same key with another body or on another call, and changes nothing', async () => {
    const key = unique('key-');
    const c = counter();
    await idempotent(db(), { accountId, key, call: 'POST credits/top-up', body: { amountFen: 100 } }, c.work);
    for (const [call, body] of [
      ['POST credits/top-up', { amountFen: 101 }],
      ['POST payments/x/refund', { amountFen: 100 }],
    ] as const) {
      const refused = await idempotent(db(), { accountId, key, call, body }, c.work).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: 'IdempotencyKeyReused', status: 409 });
    }
    expect(c.runs()).toBe(1);
  });

  it('keeps keys per account', async () => {
    const key = unique('key-');
    const c = counter();
    await idempotent(db(), { accountId, key, call: 'c', body: {} }, c.work);
    const theirs = await idempotent(db(), { accountId: otherId, key, call: 'c', body: { x: 1 } }, c.work);
    expect(theirs).toMatchObject({ run: 2 });
  });

  it('stores nothing when the work fails, so a retry runs afresh', async () => {
    const key = unique('key-');
    const failing = async (): Promise<{ ok: boolean }> => {
      throw new AppError('InsufficientCredit', 'no money');
    };
    await expect(idempotent(db(), { accountId, key, call: 'c', body: {} }, failing)).rejects.toMatchObject({
      code: 'InsufficientCredit',
    });
    expect(await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
    expect(await idempotent(db(), { accountId, key, call: 'c', body: {} }, async () => ({ ok: true }))).toEqual({
      ok: true,
    });
  });

  it('runs once when the same request arrives many times at once', async () => {
    const key = unique('key-');
    const c = counter();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => idempotent(db(), { accountId, key, call: 'c', body: { n: 1 } }, c.work)),
    );
    expect(c.runs()).toBe(1);
    for (const a of answers) expect(a).toEqual({ run: 1, at: '2026-11-22T08:00:00.000Z' });
  });

  it('runs every time without a key', async () => {
    const c = counter();
    await idempotent(db(), { accountId, key: undefined, call: 'c', body: {} }, c.work);
    await idempotent(db(), { accountId, key: undefined, call: 'c', body: {} }, c.work);
    expect(c.runs()).toBe(2);
  });
});

describe('idempotencyKeyOf', () => {
  it('reads a valid header, nothing when absent, and refuses a malformed one', () => {
    expect(idempotencyKeyOf({ headers: { 'idempotency-key': 'abc-12345' } })).toBe('abc-12345');
    expect(idempotencyKeyOf({ headers: {} })).toBeUndefined();
    for (const bad of ['short', 'has space here', 'x'.repeat(129), 'ключ-12345']) {
      expect(() => idempotencyKeyOf({ headers: { 'idempotency-key': bad } })).toThrow(/Idempotency-Key/);
    }
  });
});
