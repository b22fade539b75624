import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PaymentChannel } from './billing.js';
import {
  checkBalanced,
  createLedgerSim,
  creditSpendRefusal,
  ledgerAccount,
  paymentPosting,
  planPosting,
  refundable,
  refundPosting,
  slaCreditFen,
  slaCreditPosting,
  topupPosting,
  type LedgerLine,
  type TopupSource,
} from './ledger-rules.js';
import { CURRENCIES, MAX_AMOUNT_FEN, type Currency } from './money.js';

describe('ledger accounts and postings', () => {
  it('names the four account families', () => {
    expect(ledgerAccount.groupCredit('g1')).toBe('credit:g1');
    expect(ledgerAccount.revenue('b1')).toBe('revenue:b1');
    expect(ledgerAccount.cash('weixin')).toBe('cash:weixin');
    expect(ledgerAccount.cash('manual')).toBe(ledgerAccount.cashManual);
  });

  it('posts each event as billing-interfaces.md describes', () => {
    const base = { payerGroupId: 'g', expertBucketId: 'b', amountFen: 1250, currency: 'CNY' as const };
    expect(paymentPosting({ ...base, channel: 'weixin' })).toEqual([
      { account: 'cash:weixin', amountFen: 1250, currency: 'CNY' },
      { account: 'revenue:b', amountFen: -1250, currency: 'CNY' },
    ]);
    expect(paymentPosting({ ...base, channel: 'credit' })[0]!.account).toBe('credit:g');
    expect(refundPosting({ ...base, channel: 'credit' })).toEqual([
      { account: 'revenue:b', amountFen: 1250, currency: 'CNY' },
      { account: 'credit:g', amountFen: -1250, currency: 'CNY' },
    ]);
    expect(refundPosting({ ...base, channel: 'weixin' })[1]!.account).toBe('cash:weixin');
    expect(topupPosting({ source: 'manual', groupId: 'g', amountFen: 5, currency: 'USD' })).toEqual([
      { account: 'cash:manual', amountFen: 5, currency: 'USD' },
      { account: 'credit:g', amountFen: -5, currency: 'USD' },
    ]);
    expect(slaCreditPosting({ buyerGroupId: 'g', expertBucketId: 'b', amountFen: 7, currency: 'CNY' })).toEqual([
      { account: 'revenue:b', amountFen: 7, currency: 'CNY' },
      { account: 'credit:g', amountFen: -7, currency: 'CNY' },
    ]);
  });

  it('posts a plan package from WeChat cash or the group balance to the platform plan earnings', () => {
    expect(planPosting({ channel: 'weixin', payerGroupId: 'g', amountFen: 300_000, currency: 'CNY' })).toEqual([
      { account: 'cash:weixin', amountFen: 300_000, currency: 'CNY' },
      { account: 'platform:plans', amountFen: -300_000, currency: 'CNY' },
    ]);
    expect(planPosting({ channel: 'credit', payerGroupId: 'g', amountFen: 5, currency: 'CNY' })[0]!.account).toBe(
      'credit:g',
    );
    expect(checkBalanced([{ account: 'platform:other', amountFen: 1, currency: 'CNY' }])).toMatchObject({
      reason: 'empty',
    });
    expect(
      checkBalanced([
        { account: 'platform:other', amountFen: 1, currency: 'CNY' },
        { account: 'cash:weixin', amountFen: -1, currency: 'CNY' },
      ]),
    ).toMatchObject({ reason: 'badAccount' });
  });

  it('refuses to build a posting of no money, negative or fractional fen', () => {
    for (const amountFen of [0, -1, 1.5, Number.NaN]) {
      expect(() => topupPosting({ source: 'manual', groupId: 'g', amountFen, currency: 'CNY' })).toThrow(RangeError);
    }
  });

  it('tells balanced lines from every kind of unbalanced ones', () => {
    const ok: LedgerLine[] = [
      { account: 'cash:weixin', amountFen: 100, currency: 'CNY' },
      { account: 'revenue:b', amountFen: -100, currency: 'CNY' },
      { account: 'cash:manual', amountFen: 3, currency: 'USD' },
      { account: 'credit:g', amountFen: -3, currency: 'USD' },
    ];
    expect(checkBalanced(ok)).toEqual({ balanced: true });
    expect(checkBalanced([])).toMatchObject({ reason: 'empty' });
    expect(checkBalanced([ok[0]!])).toMatchObject({ reason: 'empty' });
    expect(checkBalanced([ok[0]!, { ...ok[1]!, currency: 'USD' }])).toMatchObject({ reason: 'unbalanced' });
    expect(checkBalanced([ok[0]!, { ...ok[1]!, amountFen: -99 }])).toMatchObject({
      reason: 'unbalanced',
      currency: 'CNY',
    });
    expect(checkBalanced([...ok, { account: 'cash:x', amountFen: 0, currency: 'CNY' }])).toMatchObject({
      reason: 'badAccount',
    });
    expect(checkBalanced([{ ...ok[0]!, account: 'credit:' }, ok[1]!])).toMatchObject({ reason: 'badAccount' });
    expect(checkBalanced([...ok, { account: 'credit:g', amountFen: 0, currency: 'CNY' }])).toMatchObject({
      reason: 'badAmount',
    });
    expect(
      checkBalanced([
        { ...ok[0]!, amountFen: 0.5 },
        { ...ok[1]!, amountFen: -0.5 },
      ]),
    ).toMatchObject({
      reason: 'badAmount',
    });
    expect(
      checkBalanced([ok[0]!, { ...ok[1]!, currency: 'EUR' as Currency }, { ...ok[1]!, currency: 'CNY' }]),
    ).toMatchObject({ reason: 'badAmount' });
  });

  it('computes what is refundable and never a negative amount', () => {
    expect(refundable(1000, 0, 0)).toBe(1000);
    expect(refundable(1000, 300, 200)).toBe(500);
    expect(refundable(1000, 1000, 0)).toBe(0);
    expect(refundable(1000, 800, 300)).toBe(0);
  });

  it('credits a breached turnaround as the price share rounded down to the fen', () => {
    expect(slaCreditFen(1000, 2000)).toBe(200);
    expect(slaCreditFen(999, 1000)).toBe(99);
    expect(slaCreditFen(1, 9999)).toBe(0);
    expect(slaCreditFen(1000, 0)).toBe(0);
    expect(slaCreditFen(1000, 20000)).toBe(1000);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_AMOUNT_FEN }), fc.integer({ min: 0, max: 10_000 }), (price, bp) => {
        const credit = slaCreditFen(price, bp);
        expect(Number.isInteger(credit)).toBe(true);
        expect(credit).toBeGreaterThanOrEqual(0);
        expect(credit).toBeLessThanOrEqual(price);
        // rounded down: the exact share lies in [credit, credit + 1)
        expect(credit * 10_000).toBeLessThanOrEqual(price * bp);
        expect((credit + 1) * 10_000).toBeGreaterThan(price * bp);
      }),
    );
  });

  it('refuses a credit spend above the balance', () => {
    expect(creditSpendRefusal(100, 100)).toBeNull();
    expect(creditSpendRefusal(100, 101)).toBe('InsufficientCredit');
    expect(creditSpendRefusal(0, 1)).toBe('InsufficientCredit');
  });

  it('posts once per kind and ref, and refuses unbalanced lines', () => {
    const sim = createLedgerSim();
    const lines = topupPosting({ source: 'manual', groupId: 'g', amountFen: 10, currency: 'CNY' });
    expect(sim.post({ kind: 'topup', ref: 'r1', lines }).posted).toBe(true);
    expect(sim.post({ kind: 'topup', ref: 'r1', lines }).posted).toBe(false);
    expect(sim.post({ kind: 'payment', ref: 'r1', lines }).posted).toBe(true);
    expect(() => sim.post({ kind: 'topup', ref: 'r2', lines: [lines[0]!] })).toThrow(/unbalanced/);
    expect(sim.groupCreditBalance('g', 'CNY')).toBe(20);
    expect(sim.entries()).toHaveLength(4);
  });
});

/* ---------- property: any sequence of money events keeps the ledger sound ---------- */

const GROUPS = ['g1', 'g2'] as const;
const BUCKETS = ['b1', 'b2'] as const;
const amount = fc.integer({ min: 1, max: 50_000 });
const currency = fc.constantFrom<Currency>(...CURRENCIES);

type Op =
  | { op: 'topup'; group: string; source: TopupSource; amountFen: number; currency: Currency }
  | { op: 'plan'; group: string; channel: PaymentChannel; amountFen: number; currency: Currency }
  | { op: 'pay'; group: string; bucket: string; channel: PaymentChannel; amountFen: number; currency: Currency }
  | { op: 'refund'; payment: number; amountFen: number; pending: boolean }
  | { op: 'settle'; refund: number; success: boolean }
  | { op: 'sla'; group: string; bucket: string; amountFen: number; currency: Currency }
  | { op: 'repost'; txn: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('topup' as const),
    group: fc.constantFrom(...GROUPS),
    source: fc.constantFrom<TopupSource>('weixin', 'manual'),
    amountFen: amount,
    currency,
  }),
  fc.record({
    op: fc.constant('pay' as const),
    group: fc.constantFrom(...GROUPS),
    bucket: fc.constantFrom(...BUCKETS),
    channel: fc.constantFrom<PaymentChannel>('weixin', 'credit'),
    amountFen: amount,
    currency,
  }),
  fc.record({
    op: fc.constant('refund' as const),
    payment: fc.nat(40),
    amountFen: amount,
    pending: fc.boolean(),
  }),
  fc.record({ op: fc.constant('settle' as const), refund: fc.nat(40), success: fc.boolean() }),
  fc.record({
    op: fc.constant('sla' as const),
    group: fc.constantFrom(...GROUPS),
    bucket: fc.constantFrom(...BUCKETS),
    amountFen: amount,
    currency,
  }),
  fc.record({ op: fc.constant('repost' as const), txn: fc.nat(60) }),
  fc.record({
    op: fc.constant('plan' as const),
    group: fc.constantFrom(...GROUPS),
    channel: fc.constantFrom<PaymentChannel>('weixin', 'credit'),
    amountFen: amount,
    currency,
  }),
);

interface Payment {
  no: string;
  group: string;
  bucket: string;
  channel: PaymentChannel;
  paidFen: number;
  currency: Currency;
  refundedFen: number;
  pendingFen: number;
}
interface Refund {
  no: string;
  payment: Payment;
  amountFen: number;
  state: 'pending' | 'success' | 'closed';
}

/** What each group's balance should be, counted from the events rather than the ledger. */
type Expected = Map<string, number>;
const key = (group: string, c: Currency) => `${group}/${c}`;
const bump = (m: Expected, group: string, c: Currency, d: number) =>
  m.set(key(group, c), (m.get(key(group, c)) ?? 0) + d);

describe('ledger property: any sequence of top-ups, payments, refunds, SLA credits and plan packages', () => {
  it('balances every txn, sums to zero, never over-refunds nor overdraws a group', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const sim = createLedgerSim();
        const payments: Payment[] = [];
        const refunds: Refund[] = [];
        const expected: Expected = new Map();
        let seq = 0;
        const postRefund = (r: Refund) => {
          const p = r.payment;
          const lines = refundPosting({
            channel: p.channel,
            payerGroupId: p.group,
            expertBucketId: p.bucket,
            amountFen: r.amountFen,
            currency: p.currency,
          });
          expect(sim.post({ kind: 'refund', ref: r.no, lines }).posted).toBe(true);
          p.refundedFen += r.amountFen;
          if (p.channel === 'credit') {
            bump(expected, p.group, p.currency, r.amountFen);
          }
        };
        for (const o of ops) {
          seq += 1;
          if (o.op === 'topup') {
            sim.post({
              kind: 'topup',
              ref: `tu${seq}`,
              groupId: o.group,
              lines: topupPosting({ ...o, groupId: o.group }),
            });
            bump(expected, o.group, o.currency, o.amountFen);
          } else if (o.op === 'pay') {
            if (o.channel === 'credit') {
              const refusal = creditSpendRefusal(sim.groupCreditBalance(o.group, o.currency), o.amountFen);
              if (refusal) {
                continue;
              }
              bump(expected, o.group, o.currency, -o.amountFen);
            }
            const p: Payment = {
              no: `pay${seq}`,
              group: o.group,
              bucket: o.bucket,
              channel: o.channel,
              paidFen: o.amountFen,
              currency: o.currency,
              refundedFen: 0,
              pendingFen: 0,
            };
            const lines = paymentPosting({ ...o, payerGroupId: o.group, expertBucketId: o.bucket });
            sim.post({ kind: 'payment', ref: p.no, groupId: o.group, lines });
            payments.push(p);
          } else if (o.op === 'refund') {
            const p = payments[o.payment % Math.max(1, payments.length)];
            if (!p || o.amountFen > refundable(p.paidFen, p.refundedFen, p.pendingFen)) {
              continue; // refused: RefundExceedsPaid
            }
            const r: Refund = { no: `rf${seq}`, payment: p, amountFen: o.amountFen, state: 'pending' };
            refunds.push(r);
            if (o.pending) {
              p.pendingFen += r.amountFen;
            } else {
              r.state = 'success';
              postRefund(r);
            }
          } else if (o.op === 'settle') {
            const pending = refunds.filter((r) => r.state === 'pending');
            const r = pending[o.refund % Math.max(1, pending.length)];
            if (!r) {
              continue;
            }
            r.payment.pendingFen -= r.amountFen;
            r.state = o.success ? 'success' : 'closed';
            if (o.success) {
              postRefund(r);
            }
          } else if (o.op === 'plan') {
            if (o.channel === 'credit') {
              if (creditSpendRefusal(sim.groupCreditBalance(o.group, o.currency), o.amountFen)) {
                continue;
              }
              bump(expected, o.group, o.currency, -o.amountFen);
            }
            const before = sim.balanceOf(ledgerAccount.platformPlans, o.currency);
            const lines = planPosting({ ...o, payerGroupId: o.group });
            sim.post({ kind: 'plan', ref: `plan${seq}`, groupId: o.group, lines });
            // the platform's earnings (a credit account: negative sum) grow by the price
            expect(sim.balanceOf(ledgerAccount.platformPlans, o.currency)).toBe(before - o.amountFen);
          } else if (o.op === 'sla') {
            const lines = slaCreditPosting({ ...o, buyerGroupId: o.group, expertBucketId: o.bucket });
            sim.post({ kind: 'sla_credit', ref: `order${seq}`, lines });
            bump(expected, o.group, o.currency, o.amountFen);
          } else {
            const txns = sim.txns();
            const t = txns[o.txn % Math.max(1, txns.length)];
            if (t) {
              const before = sim.entries().length;
              expect(sim.post(t).posted).toBe(false);
              expect(sim.entries()).toHaveLength(before);
            }
          }

          for (const t of sim.txns()) {
            expect(checkBalanced(t.lines)).toEqual({ balanced: true });
          }
          for (const c of CURRENCIES) {
            expect(sim.total(c)).toBe(0);
            for (const g of GROUPS) {
              const balance = sim.groupCreditBalance(g, c);
              expect(balance).toBeGreaterThanOrEqual(0);
              expect(balance).toBe(expected.get(key(g, c)) ?? 0);
            }
          }
          for (const p of payments) {
            const postedRefunds = sim
              .entries()
              .filter((e) => e.kind === 'refund' && refunds.some((r) => r.no === e.ref && r.payment === p))
              .filter((e) => e.amountFen > 0)
              .reduce((s, e) => s + e.amountFen, 0);
            expect(postedRefunds).toBe(p.refundedFen);
            expect(p.refundedFen + p.pendingFen).toBeLessThanOrEqual(p.paidFen);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
