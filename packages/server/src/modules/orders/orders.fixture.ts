import type { Order, Product } from '@yyp/contracts';
import { expect } from 'vitest';
import { makeStaffed, type Staffed } from '../../test/factories-archive.js';
import { makeExam, makeGroupMember, type BuiltAccount } from '../../test/factories.js';
import type { TestApp } from '../../test/harness.js';
import { updateDomainConfig } from '../domain/index.js';

/**
 * The marketplace's test world: a county hospital's radiology (group A) orders reads from a
 * teleradiology centre of another group (paid), whose doctors report in their own workstation.
 */
export interface OrdersWorld {
  clinic: Staffed<'doctor' | 'senior' | 'tech'>;
  experts: Staffed<'teledoctor' | 'expert' | 'teleadmin'>;
  /** group A's admin (group_manage) */
  clinicAdmin: BuiltAccount;
  product: Product;
}

/** The doctor of the clinic may apply for both kinds of reads. */
const APPLY = ['apply_expert_report', 'apply_remote_report', 'upload_apply_forms'] as const;

export async function makeOrdersWorld(
  t: TestApp,
  opts: { paid?: boolean; payments?: boolean } = {},
): Promise<OrdersWorld> {
  await updateDomainConfig(t.db.database.db, { enablePaymentService: opts.payments ?? true }, t.clock.now());
  const clinic = await makeStaffed(
    t,
    ['doctor', 'senior', 'tech'],
    { name: '县医院放射科' },
    {
      doctor: { role: 'reporting', plus: APPLY },
    },
  );
  const experts = await makeStaffed(t, ['teledoctor', 'expert', 'teleadmin'], { name: '远程专家中心' });
  const clinicAdmin = await makeGroupMember(t, clinic.org.groupId, 1);
  const added = await t.as(experts.teleadmin.token).post('products', {
    bucketId: experts.org.bucketId,
    name: 'CT 专家读片',
    priceFen: 12_000,
    turnaroundMinutes: 120,
    breachCreditBp: 2500,
    modality: 'CT',
  });
  expect(added.statusCode, added.body).toBe(201);
  const joined = await t
    .as(clinicAdmin.token)
    .post(`groups/${clinic.org.groupId}/expert-buckets`, { bucketId: experts.org.bucketId, paid: opts.paid ?? true });
  expect(joined.statusCode, joined.body).toBe(200);
  return { clinic, experts, clinicAdmin, product: added.json() as Product };
}

export async function newExam(t: TestApp, w: OrdersWorld, patientName = 'Zhang^San'): Promise<string> {
  return (await makeExam(t, w.clinic.org.bucketId, { patientName })).examId;
}

export async function applyOk(t: TestApp, w: OrdersWorld, examId: string, over: Record<string, unknown> = {}) {
  const res = await t.as(w.clinic.doctor.token).post('request/apply', {
    examId,
    productId: w.product.id,
    reason: '疑难病例',
    applicantMobile: '13800138000',
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Order;
}
