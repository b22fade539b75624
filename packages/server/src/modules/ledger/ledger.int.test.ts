import {
  createLedgerSim,
  creditSpendRefusal,
  paymentPosting,
  refundPosting,
  slaCreditPosting,
  topupPosting,
  type LedgerKind,
  type LedgerLine,
} from '@yyp/contracts';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditChargeTokens, ledgerEntries } from '../../db/schema.js';
import { makeOrganization, unique } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import {
  LedgerUnbalancedError,
  balanceOf,
  consumeCreditToken,
  entriesForOrder,
  groupCreditBalance,
  issueCreditToken,
  lockGroupCredit,
  postTxn,
  statement,
  statementSums,
} from './index.js';

/**
 * The ledger face (billing-interfaces.md) on PGlite and PostgreSQL: postings once per (kind, ref)
 * even when duplicates run at once, unbalanced lines refused, balances as sums, statements,
 * serialised credit spends and single-use credit tokens.
 */
let t: TestApp;
let clinic: { bucketId: string; groupId: string };
let experts: { bucketId: string; groupId: string };
const db = () => t.db.database.db;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  clinic = await makeOrganization(t, { name: '县医院放射科' });
  experts = await makeOrganization(t, { name: '远程专家中心' });
});
afterAll(async () => {
  await t.close();
});

const topup = (groupId: string, amountFen: number, ref = unique('tu-')) =>
  postTxn(db(), {
    kind: 'topup',
    ref,
    groupId,
    lines: topupPosting({ source: 'manual', groupId, amountFen, currency: 'CNY' }),
  });

describe('postTxn', () => {
  it('posts a balanced txn once per kind and ref', async () => {
    const ref = unique('pay-');
    const lines = paymentPosting({
      channel: 'weixin',
      payerGroupId: clinic.groupId,
      expertBucketId: experts.bucketId,
      amountFen: 12_000,
      currency: 'CNY',
    });
    const orderId = unique('ord-');
    const first = await postTxn(db(), { kind: 'payment', ref, groupId: clinic.groupId, orderId, lines });
    expect(first.posted).toBe(true);
    const again = await postTxn(db(), { kind: 'payment', ref, groupId: clinic.groupId, orderId, lines });
    expect(again).toEqual({ txnId: first.txnId, posted: false });
    expect(await balanceOf(db(), `revenue:${experts.bucketId}`, 'CNY')).toBe(-12_000);
    const entries = await entriesForOrder(db(), orderId);
    expect(entries.map((e) => [e.account, e.amountFen, e.kind, e.ref])).toEqual([
      [`revenue:${experts.bucketId}`, -12_000, 'payment', ref],
      ['cash:weixin', 12_000, 'payment', ref],
    ]);
    expect(await entriesForOrder(db(), 'no-such-order')).toEqual([]);
  });

  it('refuses unbalanced or malformed lines and writes nothing', async () => {
    const ref = unique('bad-');
    const bad: LedgerLine[][] = [
      [{ account: 'cash:manual', amountFen: 100, currency: 'CNY' }],
      [
        { account: 'cash:manual', amountFen: 100, currency: 'CNY' },
        { account: `credit:${clinic.groupId}`, amountFen: -99, currency: 'CNY' },
      ],
      [
        { account: 'cash:manual', amountFen: 100, currency: 'CNY' },
        { account: `credit:${clinic.groupId}`, amountFen: -100, currency: 'USD' },
      ],
      [
        { account: 'bank:x', amountFen: 100, currency: 'CNY' },
        { account: `credit:${clinic.groupId}`, amountFen: -100, currency: 'CNY' },
      ],
    ];
    const before = await groupCreditBalance(db(), clinic.groupId, 'CNY');
    for (const lines of bad) {
      await expect(postTxn(db(), { kind: 'topup', ref, lines })).rejects.toBeInstanceOf(LedgerUnbalancedError);
    }
    expect(await groupCreditBalance(db(), clinic.groupId, 'CNY')).toBe(before);
    // the ref is still free: nothing was written under it
    expect((await topup(clinic.groupId, 1, ref)).posted).toBe(true);
  });

  it('posts once when the same (kind, ref) is posted by many at once', async () => {
    const group = await makeOrganization(t);
    const ref = unique('dup-');
    const results = await Promise.all(Array.from({ length: 8 }, () => topup(group.groupId, 500, ref)));
    expect(results.filter((r) => r.posted)).toHaveLength(1);
    expect(new Set(results.map((r) => r.txnId)).size).toBe(1);
    expect(await groupCreditBalance(db(), group.groupId, 'CNY')).toBe(500);
    expect(await groupCreditBalance(db(), group.groupId, 'USD')).toBe(0);
  });

  it('keeps the sum over all accounts at zero', async () => {
    const list = await db()
      .select({ currency: ledgerEntries.currency, s: sql<string>`sum(${ledgerEntries.amountFen})` })
      .from(ledgerEntries)
      .groupBy(ledgerEntries.currency);
    expect(list.length).toBeGreaterThan(0);
    for (const r of list) expect(Number(r.s)).toBe(0);
  });
});

describe('group credit', () => {
  it('never spends a balance twice when spends run at once under lockGroupCredit', async () => {
    const group = await makeOrganization(t);
    await topup(group.groupId, 1_000);
    const spend = () =>
      db().transaction(async (tx) => {
        await lockGroupCredit(tx, group.groupId);
        const balance = await groupCreditBalance(tx, group.groupId, 'CNY');
        if (creditSpendRefusal(balance, 300)) return false;
        const lines = paymentPosting({
          channel: 'credit',
          payerGroupId: group.groupId,
          expertBucketId: experts.bucketId,
          amountFen: 300,
          currency: 'CNY',
        });
        await postTxn(tx, { kind: 'payment', ref: unique('cp-'), groupId: group.groupId, lines });
        return true;
      });
    const done = await Promise.all(Array.from({ length: 6 }, spend));
    expect(done.filter(Boolean)).toHaveLength(3);
    expect(await groupCreditBalance(db(), group.groupId, 'CNY')).toBe(100);
  });

  it('answers a statement page, its count and sums per kind', async () => {
    const group = await makeOrganization(t);
    await topup(group.groupId, 1_000);
    await topup(group.groupId, 2_000);
    await postTxn(db(), {
      kind: 'payment',
      ref: unique('cp-'),
      groupId: group.groupId,
      lines: paymentPosting({
        channel: 'credit',
        payerGroupId: group.groupId,
        expertBucketId: experts.bucketId,
        amountFen: 700,
        currency: 'CNY',
      }),
    });
    const account = `credit:${group.groupId}`;
    const all = await statement(db(), { account }, { limit: 2, offset: 0 });
    expect(all.count).toBe(3);
    expect(all.entries).toHaveLength(2);
    const topups = await statement(db(), { account, kinds: ['topup'] }, { limit: 10, offset: 0 });
    expect(topups.entries.map((e) => e.amountFen).sort()).toEqual([-1000, -2000]);
    expect(await statementSums(db(), { account })).toEqual([
      { kind: 'payment', currency: 'CNY', sumFen: 700, count: 1 },
      { kind: 'topup', currency: 'CNY', sumFen: -3000, count: 2 },
    ]);
    const future = new Date(Date.now() + 86_400_000);
    expect((await statement(db(), { account, from: future }, { limit: 10, offset: 0 })).count).toBe(0);
  });
});

describe('credit tokens', () => {
  it('are used once, within their life, and only the digest is stored', async () => {
    const now = t.clock.now();
    const issued = await issueCreditToken(db(), {
      groupId: clinic.groupId,
      bucketId: clinic.bucketId,
      accountId: null as unknown as string,
      amountFen: 1_500,
      currency: 'CNY',
      now,
    });
    expect(issued.expiresAt.getTime() - now.getTime()).toBe(300_000);
    const stored = await db().select().from(creditChargeTokens);
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(issued.token);
    const results = await Promise.all(Array.from({ length: 5 }, () => consumeCreditToken(db(), issued.token, now)));
    const used = results.filter((r) => r !== null);
    expect(used).toHaveLength(1);
    expect(used[0]).toMatchObject({ groupId: clinic.groupId, amountFen: 1_500, currency: 'CNY' });
    expect(await consumeCreditToken(db(), issued.token, now)).toBeNull();
    expect(await consumeCreditToken(db(), 'not-a-token', now)).toBeNull();
    expect(await consumeCreditToken(db(), '', now)).toBeNull();
  });

  it('refuses an expired token', async () => {
    const now = t.clock.now();
    const issued = await issueCreditToken(db(), {
      groupId: clinic.groupId,
      accountId: null as unknown as string,
      amountFen: 100,
      currency: 'USD',
      now,
      ttlSeconds: 60,
    });
    expect(await consumeCreditToken(db(), issued.token, new Date(now.getTime() + 60_000))).toBeNull();
    expect(await consumeCreditToken(db(), issued.token, new Date(now.getTime() + 59_000))).toMatchObject({
      currency: 'USD',
    });
  });
});

describe('the database ledger and the in-memory one', () => {
  it('agree on every balance for any sequence of postings, repeats included', async () => {
    const groups = [await makeOrganization(t), await makeOrganization(t)];
    const revenue = [experts.bucketId, clinic.bucketId];
    const op = fc.record({
      kind: fc.constantFrom<LedgerKind>('topup', 'payment', 'refund', 'sla_credit'),
      group: fc.nat(1),
      bucket: fc.nat(1),
      credit: fc.boolean(),
      amountFen: fc.integer({ min: 1, max: 100_000 }),
      currency: fc.constantFrom('CNY' as const, 'USD' as const),
      repeat: fc.boolean(),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        run += 1;
        const sim = createLedgerSim();
        const refs = groups.map((g) => g.groupId);
        // each run starts from the database's balances: the sim counts the run's postings on top
        const before = async (fn: (g: string) => Promise<number>) => Promise.all(refs.map(fn));
        const cny0 = await before((g) => groupCreditBalance(db(), g, 'CNY'));
        const usd0 = await before((g) => groupCreditBalance(db(), g, 'USD'));
        for (const [i, o] of ops.entries()) {
          const groupId = refs[o.group]!;
          const channel = o.credit ? ('credit' as const) : ('weixin' as const);
          const p = {
            payerGroupId: groupId,
            expertBucketId: revenue[o.bucket]!,
            amountFen: o.amountFen,
            currency: o.currency,
          };
          const lines =
            o.kind === 'topup'
              ? topupPosting({ source: 'manual', groupId, amountFen: o.amountFen, currency: o.currency })
              : o.kind === 'payment'
                ? paymentPosting({ ...p, channel })
                : o.kind === 'refund'
                  ? refundPosting({ ...p, channel })
                  : slaCreditPosting({ ...p, buyerGroupId: groupId });
          const txn = { kind: o.kind, ref: `prop-${run}-${o.repeat && i > 0 ? i - 1 : i}`, groupId, lines };
          const expected = sim.post(txn).posted;
          expect((await postTxn(db(), txn)).posted).toBe(expected);
        }
        for (const [i, g] of refs.entries()) {
          expect((await groupCreditBalance(db(), g, 'CNY')) - cny0[i]!).toBe(sim.groupCreditBalance(g, 'CNY'));
          expect((await groupCreditBalance(db(), g, 'USD')) - usd0[i]!).toBe(sim.groupCreditBalance(g, 'USD'));
        }
      }),
      { numRuns: 15 },
    );
    const list = await db()
      .select({ currency: ledgerEntries.currency, s: sql<string>`sum(${ledgerEntries.amountFen})` })
      .from(ledgerEntries)
      .groupBy(ledgerEntries.currency);
    for (const r of list) expect(Number(r.s)).toBe(0);
  });
});
