import { z } from 'zod';
import { bindableMobileSchema } from './accounts.js';
import { defineCall } from './call.js';

/**
 * The platform admin's view of the SMS service that sends the verification codes (issue 27,
 * /settings/admin). The server's environment configures it (YYP_SMS and ALIYUN_SMS_*, docs/sms.md);
 * the platform admin may put an Alibaba Cloud SMS account of the platform's own in its place, or
 * turn the codes off, and go back to the environment's later. The page shows what is in effect,
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
  /** environment: the server's YYP_SMS; platform: the account the platform admin saved */
  source: z.enum(['environment', 'platform']),
  /** platform: when it was saved */
  updatedAt: z.string().nullable(),
  /** platform: the saved secret no longer opens (the server's JWT_SECRET changed): enter it again */
  secretUnreadable: z.boolean(),
});
export type SmsStatus = z.infer<typeof smsStatusSchema>;

/** POST admin/sms/test: a message with a made-up code (the bind template) to this number. */
export const smsTestRequestSchema = z.object({ mobile: bindableMobileSchema }).strict();
export type SmsTestRequest = z.infer<typeof smsTestRequestSchema>;

/** Alibaba Cloud's forms of an account's fields (docs/sms.md), shared by the form and the server. */
export const SMS_FIELD_RULES = {
  /** an AccessKey ID: LTAI… */
  accessKeyId: /^[A-Za-z0-9]{8,64}$/,
  /** an approved template code */
  template: /^SMS_\d{6,12}$/,
  /** a region id such as cn-hangzhou */
  region: /^[a-z]{2}(-[a-z0-9]+)+$/,
  /** the signature, without the brackets 【】 shown around it */
  signName: /^[^【】[\]\s][^【】[\]]{0,30}[^【】[\]\s]$/,
} as const;
export const SMS_SECRET_MAX = 100;

/**
 * PUT admin/sms: the platform's own SMS account in place of the environment's. `off` sends no
 * codes; `aliyun` sends them through this Alibaba Cloud account. The secret may be left out to keep
 * the one saved before. The endpoint is an origin, https (http only on loopback, a simulator).
 */
export const smsAccountRequestSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('off') }).strict(),
  z
    .object({
      mode: z.literal('aliyun'),
      accessKeyId: z.string().trim().regex(SMS_FIELD_RULES.accessKeyId),
      accessKeySecret: z.string().min(1).max(SMS_SECRET_MAX).regex(/^\S+$/).optional(),
      signName: z.string().trim().regex(SMS_FIELD_RULES.signName),
      templates: z
        .object({
          resetPassword: z.string().trim().regex(SMS_FIELD_RULES.template),
          bindMobile: z.string().trim().regex(SMS_FIELD_RULES.template),
        })
        .strict(),
      region: z.string().trim().regex(SMS_FIELD_RULES.region).default('cn-hangzhou'),
      endpoint: z.string().trim().max(200).default('https://dysmsapi.aliyuncs.com'),
    })
    .strict(),
]);
export type SmsAccountRequest = z.input<typeof smsAccountRequestSchema>;

export const smsAdminCalls = {
  status: defineCall({ method: 'GET', path: 'admin/sms', answer: smsStatusSchema }),
  test: defineCall({ method: 'POST', path: 'admin/sms/test', body: smsTestRequestSchema, status: 204 }),
  /** the platform's own account (or off) in place of the environment's */
  save: defineCall({ method: 'PUT', path: 'admin/sms', body: smsAccountRequestSchema, answer: smsStatusSchema }),
  /** back to the environment's SMS service */
  reset: defineCall({ method: 'DELETE', path: 'admin/sms', answer: smsStatusSchema }),
} as const;
