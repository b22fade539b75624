import type { ExpertBucket, Order, Product } from '@yyp/contracts';

/** Marketplace fixtures (issue 24): expert organization x1 'Expert Center' of group g1, its CT read. */
export function expertBucketOf(overrides: Partial<ExpertBucket> = {}): ExpertBucket {
  return { groupId: 'g1', bucketId: 'x1', bucketName: 'Expert Center', paid: true, isDefault: true, ...overrides };
}

export function productOf(overrides: Partial<Product> = {}): Product {
  return {
    id: 'p1',
    bucketId: 'x1',
    type: 1,
    name: 'CT expert read',
    description: '',
    modality: 'CT',
    priceFen: 12_550,
    currency: 'CNY',
    turnaroundMinutes: 120,
    breachCreditBp: 2000,
    active: true,
    version: 1,
    ...overrides,
  };
}

/** Order o1 of exam e1 (organization b1) to x1, applied and unpaid. */
export function orderOf(overrides: Partial<Order> = {}): Order {
  return {
    id: 'o1',
    orderNo: 'R20261127001',
    type: 'expert',
    groupId: 'g1',
    requestBucketId: 'b1',
    requestBucketName: 'Radiology',
    targetBucketId: 'x1',
    targetBucketName: 'Expert Center',
    examId: 'e1',
    consultationId: null,
    targetExamId: null,
    reportId: null,
    productId: 'p1',
    productName: 'CT expert read',
    priceFen: 12_550,
    currency: 'CNY',
    status: 'applied',
    paymentStatus: 0,
    channel: null,
    paidFen: 0,
    refundedFen: 0,
    paidAt: null,
    needsPayment: true,
    patientName: 'Zhang San',
    patientGender: 'M',
    patientAge: '045Y',
    applicantMobile: '13800000000',
    applicantEmail: '',
    reason: '',
    deadlineAt: null,
    reportedAt: null,
    breachedAt: null,
    slaCreditFen: 0,
    invoiceStatus: 'none',
    cancelledAt: null,
    cancelReason: '',
    created: '2026-11-27T09:00:00.000Z',
    version: 1,
    ...overrides,
  };
}
