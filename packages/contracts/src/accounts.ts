import { z } from 'zod';
import { LANGUAGES } from './limits.js';
import { REGISTRY_QUICK_RANGES, REGISTRY_SOURCES } from './registry.js';
import { LABEL_LAYOUTS, MAX_LABEL_COPIES } from './registry-print.js';
import { EXAM_STATUSES } from './registry-rules.js';
import { viewerSizeSchema } from './report-view.js';
import { PASSWORD_MAX, USERNAME_MAX, USERNAME_PATTERN } from './validation.js';

/** Token info of spec 000 §3. expires is seconds since the epoch. */
export const loginTypes = ['normal', 'sso'] as const;
export const tokenInfoSchema = z.object({
  accessToken: z.string(),
  expires: z.number().int(),
  loginType: z.enum(loginTypes),
});
export type TokenInfo = z.infer<typeof tokenInfoSchema>;

const usernameField = z
  .string()
  .transform((s) => s.trim())
  .pipe(z.string().min(1).max(USERNAME_MAX).regex(USERNAME_PATTERN));
const passwordField = z.string().min(1).max(PASSWORD_MAX);

export const loginRequestSchema = z.object({ username: usernameField, password: passwordField });
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const registerRequestSchema = z.object({
  username: usernameField,
  password: passwordField,
  name: z.string().trim().min(1).max(64),
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const changePasswordRequestSchema = z.object({
  oldPassword: passwordField,
  newPassword: passwordField,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** The password-expired path: no token, the old password proves the caller. */
export const updatePasswordRequestSchema = z.object({
  username: usernameField,
  oldPwd: passwordField,
  newPwd: passwordField,
});
export type UpdatePasswordRequest = z.input<typeof updatePasswordRequestSchema>;

/** Stored preferences of spec 000 §9; unknown keys are refused. */
export const preferencesSchema = z
  .object({
    language: z.enum(LANGUAGES),
    approveMode: z.string().max(32),
    imageColumn: z.number().int().min(1).max(4),
    workloadVersion: z.enum(['simple', 'detailed']),
    pastExamSort: z.enum(['asc', 'desc']),
    /** the viewer window opened from a report (report-view) */
    viewerSize: viewerSizeSchema,
    /** the study list's visible columns, in order */
    studyColumns: z.array(z.string().max(32)).max(40),
    /** the study list's last quick search tab and page size */
    studyFilters: z
      .object({
        quickSearchId: z.string().max(64).nullable().optional(),
        pageSize: z.number().int().min(10).max(200).optional(),
      })
      .strict(),
    /**
     * The registry's filters (spec 000 §9 "study and registry filters"): the organization, source,
     * statuses and quick range (next N days, counted from the day the list opens) the desk last chose.
     */
    registryFilters: z
      .object({
        bucketId: z.string().max(64).optional(),
        source: z.enum([...REGISTRY_SOURCES, 'all']).optional(),
        statuses: z.array(z.enum(EXAM_STATUSES)).max(EXAM_STATUSES.length).optional(),
        quickRange: z
          .union(REGISTRY_QUICK_RANGES.map((d) => z.literal(d)) as [z.ZodLiteral<3>, z.ZodLiteral<7>, z.ZodLiteral<30>])
          .nullable()
          .optional(),
      })
      .strict(),
    /** The desk's label printing (spec 000 §9 "print label … templates"): the layout and copies it prints with. */
    printLabel: z
      .object({
        layout: z.enum(LABEL_LAYOUTS).optional(),
        copies: z.number().int().min(1).max(MAX_LABEL_COPIES).optional(),
      })
      .strict(),
  })
  .partial()
  .strict();
export type Preferences = z.infer<typeof preferencesSchema>;

const mobileField = z.string().regex(/^\+?[0-9]{6,20}$/);

/** User of spec 000 §3 with the optional profile fields inline. */
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  signature: z.string().nullable(),
  canCreateGroup: z.boolean(),
  registry: z.boolean(),
  domainName: z.record(z.string(), z.string()),
  mobile: z.string().nullable(),
  licenseIssuer: z.string().nullable(),
  professionalTitle: z.string().nullable(),
  loginType: z.enum(loginTypes),
  isPlatformAdmin: z.boolean(),
  preferences: preferencesSchema,
  /** false for an account that signs in only by WeChat (spec 001: "WeChat-login users cannot change their password") */
  hasPassword: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;

export const updateMeRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(64),
    avatar: z.string().max(1024).nullable(),
    mobile: mobileField.nullable(),
    licenseIssuer: z.string().trim().max(128).nullable(),
    professionalTitle: z.string().trim().max(64).nullable(),
    preferences: preferencesSchema,
  })
  .partial()
  .strict();
export type UpdateMeRequest = z.infer<typeof updateMeRequestSchema>;

export const suggestionsQuerySchema = z.object({ q: z.string().trim().min(1).max(64) });
export const accountSuggestionSchema = z.object({ id: z.string(), username: z.string(), name: z.string() });
export const accountSuggestionsSchema = z.array(accountSuggestionSchema);
export type AccountSuggestion = z.infer<typeof accountSuggestionSchema>;

/**
 * One permission entry per bucket the caller may act in. type 1 = report, 2 = remote
 * (spec 000 §6: a single entry of type 2 forces the report-source filter to all).
 */
export const permissionEntrySchema = z.object({
  bucketId: z.string(),
  groupId: z.string(),
  type: z.number().int(),
  accessLevel: z.string(),
  actions: z.array(z.string()),
});
export const permissionsSchema = z.array(permissionEntrySchema);
export type PermissionEntry = z.infer<typeof permissionEntrySchema>;

export const myOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  groupId: z.string(),
  accessLevel: z.string(),
});
export const myOrganizationsSchema = z.array(myOrganizationSchema);
export type MyOrganization = z.infer<typeof myOrganizationSchema>;

export const okSchema = z.object({ ok: z.literal(true) });
export const healthSchema = z.object({ status: z.literal('ok'), db: z.literal('ok'), version: z.string() });

/** Forgot-password: the masked mobile of an account, and the reset by SMS code. */
export const maskedMobileSchema = z.object({ mobile: z.string().nullable() });
export type MaskedMobile = z.infer<typeof maskedMobileSchema>;
/** SMS verification codes (issue 27): six digits, valid for five minutes, five tries. */
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_SECONDS = 5 * 60;
export const SMS_CODE_MAX_TRIES = 5;
const smsCodeField = z
  .string()
  .trim()
  .regex(new RegExp(`^[0-9]{${SMS_CODE_LENGTH}}$`));
export const passwordResetRequestSchema = z
  .object({
    code: smsCodeField,
    password: z.string().min(1).max(32),
  })
  .strict();
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** A mobile number as bound by SMS code: mainland 11 digits starting with 1, or + and 8 to 15 digits. */
export const bindableMobileSchema = z
  .string()
  .trim()
  .regex(/^(1[0-9]{10}|\+[1-9][0-9]{7,14})$/);
/** POST accounts/me/code/bind-mobile: send a code to the number to bind. */
export const bindMobileCodeRequestSchema = z.object({ mobile: bindableMobileSchema }).strict();
export type BindMobileCodeRequest = z.infer<typeof bindMobileCodeRequestSchema>;
/** POST accounts/me/mobile/bind: bind the number the code was sent to. */
export const bindMobileRequestSchema = z.object({ mobile: bindableMobileSchema, code: smsCodeField }).strict();
export type BindMobileRequest = z.infer<typeof bindMobileRequestSchema>;
