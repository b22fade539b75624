import { z } from 'zod';
import { paymentStatusSchema } from './billing.js';
import { currencySchema, fenSchema } from './money.js';

const isoTime = z.string();

/**
 * The fee where the target organization sells consultations (a product of type 3): an order of type
 * consultation, opened when the first exam is bound, paid on the order's payment page
 * (/exams/{examId}/apply-report/{orderId}) by WeChat or from the group's balance, refunded by the
 * target's order admins.
 */
export const consultationFeeSchema = z.object({
  orderId: z.string(),
  orderNo: z.string(),
  /** the source exam the order names (its payment page's address) */
  examId: z.string(),
  productName: z.string(),
  priceFen: fenSchema,
  currency: currencySchema,
  paymentStatus: paymentStatusSchema,
  paidAt: isoTime.nullable(),
});
export type ConsultationFee = z.infer<typeof consultationFeeSchema>;
