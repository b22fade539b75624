import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.js';
import { DEMO_OPENING_BALANCE_FEN, DEMO_PRODUCTS } from './demo-billing.js';
import { seedDemo } from './demo.js';

/**
 * The demo marketplace (seed/demo-billing.ts) as a running demo seeds it: the payment service on,
 * the hospital group's paid expert organization with its products and invoices, and the opening
 * balance; seeding again changes nothing.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  await seedDemo(t.db.database.db, t.clock.now(), { marketplace: true });
  await seedDemo(t.db.database.db, t.clock.now(), { marketplace: true });
});
afterAll(async () => {
  await t.close();
});

describe('the demo marketplace', () => {
  it('sells the centre’s reads to the hospital group, which holds its opening balance once', async () => {
    const admin = await t.login('groupadmin');
    const domain = (await t.as(admin).get('domain')).json<{ enablePaymentService: boolean }>();
    expect(domain.enablePaymentService).toBe(true);
    const experts = await t.as(admin).get('groups/demo-renhe/expert-buckets');
    expect(experts.statusCode, experts.body).toBe(200);
    const list = experts.json<{ bucketId: string; paid: boolean }[]>();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ paid: true, isDefault: true });
    const products = await t.as(admin).get(`products?type=1&bucketId=${list[0]!.bucketId}`);
    expect(products.statusCode, products.body).toBe(200);
    expect(products.json<unknown[]>()).toHaveLength(DEMO_PRODUCTS.filter((p) => p.type === 1).length);
    const credit = await t.as(admin).get('credits/group-credit?groupId=demo-renhe');
    expect(credit.statusCode, credit.body).toBe(200);
    expect(credit.json()).toMatchObject({ enabled: true, amountFen: DEMO_OPENING_BALANCE_FEN, currency: 'CNY' });
  });
});
