import { z } from 'zod';

/** Domain configuration of spec 000 §1: branding, registration, payment, password policy, inactivity. */
export const domainConfigSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  company: z.string(),
  hideSupportCompany: z.boolean(),
  website: z.string(),
  logo: z.string(),
  bgImgUrl: z.string(),
  allowRegistration: z.boolean(),
  isPet: z.boolean(),
  displayDomainName: z.string(),
  footerHtml: z.string(),
  allowOverview: z.boolean(),
  enablePaymentService: z.boolean(),
  allowWxNotice: z.boolean(),
  autoCreateRemoteReport: z.boolean(),
  requireStrongPwd: z.boolean(),
  maxInactiveMinutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60),
  auditLogOn: z.boolean(),
});
export type DomainConfig = z.infer<typeof domainConfigSchema>;

export const defaultDomainConfig: DomainConfig = {
  id: 'default',
  displayName: 'yyp',
  company: '',
  hideSupportCompany: false,
  website: '',
  logo: '',
  bgImgUrl: '',
  allowRegistration: false,
  isPet: false,
  displayDomainName: '',
  footerHtml: '',
  allowOverview: false,
  enablePaymentService: false,
  allowWxNotice: false,
  autoCreateRemoteReport: false,
  requireStrongPwd: false,
  maxInactiveMinutes: 0,
  auditLogOn: true,
};

/** A picture of the login page: an http(s) address or a path on this site, or none. */
const brandingPicture = z
  .string()
  .trim()
  .max(1024)
  .regex(/^(|https?:\/\/[^\s"'()<>\\]+|\/(?!\/)[^\s"'()<>\\]*)$/i);

/** PUT domain: a platform admin changes any subset of the fields except id. */
export const updateDomainConfigSchema = domainConfigSchema
  .omit({ id: true })
  .extend({
    displayName: z.string().trim().min(1).max(64),
    company: z.string().max(128),
    website: z.string().max(256),
    logo: brandingPicture,
    bgImgUrl: brandingPicture,
    displayDomainName: z.string().max(128),
    footerHtml: z.string().max(4096),
  })
  .partial()
  .strict();
export type UpdateDomainConfig = z.infer<typeof updateDomainConfigSchema>;
