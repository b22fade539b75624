import { z } from 'zod';
import { bindableMobileSchema } from './accounts.js';
import { defineCall } from './call.js';

/**
 * The platform admin's view of the SMS service that sends the verification codes (issue 27,
 * /settings/admin). The service is configured in the server's environment (YYP_SMS and
 * ALIYUN_SMS_*, docs/sms.md), where the AccessKey secret stays: the page shows what is in effect,
 * never the secret, and sends a test message.
 */
export const SMS_MODES = ['off', 'dev', 'sim', 'aliyun'] as const;
export type SmsMode = (typeof SMS_MODES)[number];

export const smsStatusSchema = z.object({
  /** off: no codes (reset by an administrator); dev: codes in the server log; sim: the local simulator; aliyun: Alibaba Cloud SMS */
  mode: z.enum(SMS_MODES),
  /** the service's origin (aliyun and sim) */
  endpoint: z.string().nullable(),
  region: z.string().nullable(),
  /** the approved signature shown as 【…】 before each message */
  signName: z.string().nullable(),
  /** the template code of each purpose */
  templates: z.object({ resetPassword: z.string(), bindMobile: z.string() }).nullable(),
  /** the AccessKey ID, its middle masked (never the secret) */
  accessKeyId: z.string().nullable(),
  /** with the simulator: the page that lists what it received */
  inboxUrl: z.string().nullable(),
});
export type SmsStatus = z.infer<typeof smsStatusSchema>;

/** POST admin/sms/test: a message with a made-up code (the bind template) to this number. */
export const smsTestRequestSchema = z.object({ mobile: bindableMobileSchema }).strict();
export type SmsTestRequest = z.infer<typeof smsTestRequestSchema>;

export const smsAdminCalls = {
  status: defineCall({ method: 'GET', path: 'admin/sms', answer: smsStatusSchema }),
  test: defineCall({ method: 'POST', path: 'admin/sms/test', body: smsTestRequestSchema, status: 204 }),
} as const;
