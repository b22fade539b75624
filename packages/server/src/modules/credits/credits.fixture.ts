import { paymentPosting } from '@yyp/contracts';
import { orders } from '../../db/schema.js';
import {
  makeAccount,
  makeExam,
  makeGroupMember,
  makeMember,
  makeOrganization,
  unique,
  type BuiltAccount,
  type BuiltMember,
  type BuiltOrganization,
} from '../../test/factories.js';
import type { TestApp } from '../../test/harness.js';
import { updateDomainConfig } from '../domain/index.js';
import { postTxn } from '../ledger/index.js';

/**
 * The credits tests' world: a clinic in a group with credit on (its doctor applies for reads, its
 * clerk only reads), the group's admin, an expert organization, a group with credit off, an outsider
 * group's admin and a platform admin.
 */
export interface CreditsWorld {
  clinic: BuiltOrganization;
  doctor: BuiltMember;
  clerk: BuiltMember;
  admin: BuiltAccount;
  experts: BuiltOrganization;
  offClinic: BuiltOrganization;
  offDoctor: BuiltMember;
  offAdmin: BuiltAccount;
  outsider: BuiltAccount;
  platformAdmin: BuiltAccount;
}

export async function makeCreditsWorld(t: TestApp): Promise<CreditsWorld> {
  await updateDomainConfig(t.db.database.db, { enablePaymentService: true }, t.clock.now());
  const clinic = await makeOrganization(t, { name: '县医院放射科', group: { settings: { enableCredit: true } } });
  const offClinic = await makeOrganization(t, { name: '乡卫生院', group: { settings: { enableCredit: false } } });
  const experts = await makeOrganization(t, { name: '远程专家中心' });
  const outsiderOrg = await makeOrganization(t, { group: { settings: { enableCredit: true } } });
  return {
    clinic,
    experts,
    offClinic,
    doctor: await makeMember(t, clinic.bucketId, { actions: ['apply_expert_report', 'report_print'] }),
    clerk: await makeMember(t, clinic.bucketId, { actions: ['report_print'] }),
    admin: await makeGroupMember(t, clinic.groupId, 1),
    offDoctor: await makeMember(t, offClinic.bucketId, { actions: ['apply_expert_report'] }),
    offAdmin: await makeGroupMember(t, offClinic.groupId, 1),
    outsider: await makeGroupMember(t, outsiderOrg.groupId, 1),
    platformAdmin: await makeAccount(t, { platformAdmin: true }),
  };
}

/** An unpaid expert order of the clinic's exam at a price. */
export async function makeUnpaidOrder(t: TestApp, w: CreditsWorld, priceFen: number, clinic = w.clinic) {
  const id = unique('ord-');
  const { examId } = await makeExam(t, clinic.bucketId);
  await t.db.database.db.insert(orders).values({
    id,
    orderNo: unique('NO'),
    type: 'expert',
    groupId: clinic.groupId,
    requestBucketId: clinic.bucketId,
    targetBucketId: w.experts.bucketId,
    examId,
    productName: 'CT 专家读片',
    priceFen,
  });
  return id;
}

/** A credit payment of the clinic's group posted straight to the ledger (payments' part). */
export function postCreditPayment(t: TestApp, w: CreditsWorld, amountFen: number, orderId?: string) {
  return postTxn(t.db.database.db, {
    kind: 'payment',
    ref: unique('pay-'),
    groupId: w.clinic.groupId,
    ...(orderId ? { orderId } : {}),
    lines: paymentPosting({
      channel: 'credit',
      payerGroupId: w.clinic.groupId,
      expertBucketId: w.experts.bucketId,
      amountFen,
      currency: 'CNY',
    }),
    at: t.clock.now(),
  });
}
