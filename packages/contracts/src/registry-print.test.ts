import { describe, expect, it } from 'vitest';
import { callKey } from './call.js';
import { registryCalls } from './registry-calls.js';
import { registryPrintCalls } from './registry-print-calls.js';
import {
  DEFAULT_ORDER_TEMPLATE_FIELDS,
  LABEL_HEIGHT_MM,
  LABEL_WIDTH_MM,
  labelsRequestSchema,
  MAX_LABEL_COPIES,
  MAX_PRINT_EXAMS,
  ORDER_TEMPLATE_FIELDS,
  orderTemplateInputSchema,
  referralFormsRequestSchema,
} from './registry-print.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);

describe('the front desk printing calls (issue 22)', () => {
  it('sit beside the registry calls, each path once', () => {
    const keys = [...Object.values(registryCalls), ...Object.values(registryPrintCalls)].map(callKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(callKey(registryPrintCalls.labels)).toBe('POST orders/labels');
    // answered with a PDF, so no answer schema
    expect(registryPrintCalls.labels.answer).toBeUndefined();
    expect(registryPrintCalls.referralForms.answer).toBeUndefined();
  });

  it('print labels of 80×50 mm (spec 000 §9), 1 to 50 exams, 1 to 5 copies, one a page unless asked', () => {
    expect([LABEL_WIDTH_MM, LABEL_HEIGHT_MM]).toEqual([80, 50]);
    expect(labelsRequestSchema.parse({ scheduledIds: ['a'] })).toEqual({
      scheduledIds: ['a'],
      copies: 1,
      layout: 'label',
      lang: 'chs',
    });
    expect(labelsRequestSchema.safeParse({ scheduledIds: ids(MAX_PRINT_EXAMS) }).success).toBe(true);
    for (const bad of [
      { scheduledIds: [] },
      { scheduledIds: ids(MAX_PRINT_EXAMS + 1) },
      { scheduledIds: ['a'], copies: MAX_LABEL_COPIES + 1 },
      { scheduledIds: ['a'], copies: 1.5 },
      { scheduledIds: ['a'], layout: 'roll' },
      { scheduledIds: ['a'], lang: 'fr' },
    ]) {
      expect(labelsRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(referralFormsRequestSchema.safeParse({ scheduledIds: ['a'], copies: 2 }).success).toBe(false);
  });

  it('keep the referral form template within its limits, each field once', () => {
    expect(DEFAULT_ORDER_TEMPLATE_FIELDS.every((f) => ORDER_TEMPLATE_FIELDS.includes(f))).toBe(true);
    expect(orderTemplateInputSchema.parse({ fields: ['barcode'] })).toEqual({
      title: '',
      headerLines: [],
      fields: ['barcode'],
      footerNote: '',
    });
    expect(orderTemplateInputSchema.parse({ title: '  申请单 ', fields: [] }).title).toBe('申请单');
    for (const bad of [
      { fields: ['age', 'age'] },
      { fields: ['salary'] },
      { fields: [], title: 'x'.repeat(65) },
      { fields: [], headerLines: ['a', 'b', 'c', 'd'] },
      { fields: [], footerNote: 'x'.repeat(501) },
      {},
    ]) {
      expect(orderTemplateInputSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
