import { z } from 'zod';
import { tokenInfoSchema } from './accounts.js';
import { USERNAME_MAX, USERNAME_PATTERN } from './validation.js';

/**
 * Signed entries of a hospital information system (spec 000 §2 /ss-login and /go, spec 001 §7
 * GET tokens; issue 27). docs/hospital-entry.md is the guide for hospital IT.
 *
 * The hospital system signs an entry payload with the group's web secret (the one /web links use):
 *
 *     signature = lower-case hex HMAC-SHA256(key = the secret's UTF-8 bytes, entryCanonical(payload))
 *
 * and sends the payload with its signature as base64url (no padding) of its JSON:
 * /ss-login?t=<that> or /go?data=<that>&source=<system name>. The page hands it to GET
 * tokens?signature=<that>&type=ss-login|go, which answers a session of the named account.
 *
 * - Short-lived: `timestamp` (seconds since the epoch) within ENTRY_MAX_SKEW_SECONDS of the
 *   server's clock, either way.
 * - Single use: a group's `nonce` opens one session; a second use is refused.
 * - The account must be a member of the group, enabled, and no platform administrator.
 * - Every refusal answers 403 LinkInvalid with `details.reason` (ENTRY_REFUSALS); the reasons
 *   after the signature (expired, used, account) are only told for a correctly signed payload.
 */
export const ENTRY_MAX_SKEW_SECONDS = 300;
/** The page an entry came in by: /ss-login (type ss-login) or /go (type go). */
export const ENTRY_TYPES = ['ss-login', 'go'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];
/** Why an entry was refused (details.reason of LinkInvalid). */
export const ENTRY_REFUSALS = ['invalid', 'expired', 'used', 'account'] as const;
export type EntryRefusal = (typeof ENTRY_REFUSALS)[number];

/** The signed fields in signing order; the canonical string is one `name=value` line each. */
export const ENTRY_SIGNED_FIELDS = ['groupId', 'username', 'timestamp', 'nonce', 'target'] as const;
export type EntrySignedField = (typeof ENTRY_SIGNED_FIELDS)[number];

/**
 * The string signed: `groupId=…\nusername=…\ntimestamp=…\nnonce=…\ntarget=…`, the values exactly
 * as in the JSON (timestamp as decimal digits, an absent target empty), joined by "\n", no final newline.
 */
export function entryCanonical(fields: { [K in EntrySignedField]?: string | number | undefined }): string {
  return ENTRY_SIGNED_FIELDS.map((name) => `${name}=${fields[name] ?? ''}`).join('\n');
}

const ID = '[A-Za-z0-9._-]{1,64}';
/**
 * Where an entry may land (a path of the web app; nothing else, so a link cannot send anyone off
 * the site): the study list, or an exam's report editor (a report's id is its exam's id).
 */
export const ENTRY_TARGET_PATTERNS: readonly RegExp[] = [/^\/studies$/, new RegExp(`^/studies/${ID}/reports/${ID}$`)];
export const ENTRY_DEFAULT_TARGET = '/studies';
export const isEntryTarget = (path: string): boolean => ENTRY_TARGET_PATTERNS.some((p) => p.test(path));

export const entryPayloadSchema = z.object({
  groupId: z.string().min(1).max(64),
  username: z.string().min(1).max(USERNAME_MAX).regex(USERNAME_PATTERN),
  /** seconds since the epoch */
  timestamp: z.number().int().nonnegative().max(99_999_999_999),
  /** random, 16 to 64 characters of base64url's alphabet; never used twice in a group */
  nonce: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  target: z.string().max(200).refine(isEntryTarget, 'a path of the web app').optional(),
  /** lower-case hex HMAC-SHA256 of entryCanonical */
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});
export type EntryPayload = z.infer<typeof entryPayloadSchema>;

/** GET tokens: signature is the whole signed payload as the page received it (t of /ss-login, data of /go). */
export const entryTokenQuerySchema = z.object({
  signature: z.string().min(1).max(4096),
  type: z.enum(ENTRY_TYPES),
  /** /go's source: the name of the hospital system, recorded in the audit log */
  source: z
    .string()
    .max(64)
    .regex(/^[\w .:-]*$/)
    .optional(),
});
export type EntryTokenQuery = z.infer<typeof entryTokenQuerySchema>;

/** The session of the entry (loginType sso), the account it is for and where the page goes. */
export const entryTokenSchema = tokenInfoSchema.extend({
  username: z.string(),
  target: z.string(),
});
export type EntryToken = z.infer<typeof entryTokenSchema>;
