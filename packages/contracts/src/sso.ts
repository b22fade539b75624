import { z } from 'zod';
import { tokenInfoSchema } from './accounts.js';

/**
 * OpenID Connect single sign-on (issue 27; docs/sso.md). A group's admins configure one provider
 * for their group; an identity at it links to an account only inside that group.
 */

/** The login types GET accounts/auth starts: an OIDC provider of a group, or WeChat's website login. */
export const AUTH_TYPES = ['sso', 'wx'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

/** A started sign-in is good for this long (the state, PKCE verifier and nonce are then dropped). */
export const SSO_ATTEMPT_MINUTES = 10;

/** Claim names: the standard ones and dotted custom ones (no spaces). */
const claimName = z
  .string()
  .trim()
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]*$/);
const requiredClaim = claimName.pipe(z.string().min(1));

/** A site path to return to after signing in: one leading slash, never a scheme or another host. */
export const siteRedirectSchema = z
  .string()
  .max(512)
  .regex(/^\/(?![/\\])[^\s]*$/);

export const authQuerySchema = z.object({
  type: z.enum(AUTH_TYPES),
  /** with a group: start that group's sign-in and answer its url */
  groupId: z.string().min(1).max(64).optional(),
  redirect: siteRedirectSchema.optional(),
});
export type AuthQuery = z.input<typeof authQuerySchema>;

export const ssoProviderEntrySchema = z.object({ groupId: z.string(), label: z.string() });
export type SsoProviderEntry = z.infer<typeof ssoProviderEntrySchema>;

/**
 * Without groupId: the enabled providers, for the login page's "Sign in with …" buttons (url null).
 * With groupId: `url`, the provider's authorization request to send the browser to (providers []).
 */
export const authAnswerSchema = z.object({
  providers: z.array(ssoProviderEntrySchema),
  url: z.string().nullable(),
  /** whether WeChat login is configured (YYP_WX_LOGIN not off): the login page's WeChat button */
  wx: z.boolean().optional(),
});
export type AuthAnswer = z.infer<typeof authAnswerSchema>;

/**
 * GET accounts/me/sso: the caller's links to the single sign-on of its groups (`linked`), and the
 * groups whose enabled provider it may still link (`offered`: a member, not yet linked there).
 */
export const ssoLinksSchema = z.object({
  linked: z.array(
    z.object({
      groupId: z.string(),
      label: z.string(),
      issuer: z.string(),
      linkedAt: z.string(),
      lastLoginAt: z.string().nullable(),
    }),
  ),
  offered: z.array(ssoProviderEntrySchema),
  /** false: the account signs in only by its single sign-on, so it may not unlink it */
  hasPassword: z.boolean(),
});
export type SsoLinks = z.infer<typeof ssoLinksSchema>;

/** What /loginCallback received: code and state, and the issuer when the provider names it (RFC 9207). */
export const authTokenQuerySchema = z.object({
  code: z.string().min(1).max(2048),
  state: z.string().min(1).max(256),
  iss: z.string().max(512).optional(),
});

/**
 * TokenInfo (loginType sso), the account's username, the group whose provider signed the user in (the web keeps it for GET
 * login-url) and where the sign-in was started from (a site path, or null).
 */
export const ssoTokenInfoSchema = tokenInfoSchema.extend({
  username: z.string(),
  groupId: z.string(),
  redirect: z.string().nullable(),
});
export type SsoTokenInfo = z.infer<typeof ssoTokenInfoSchema>;

/**
 * GET login-url?groupId: where a signed-out single-sign-on user of that group signs in again: the
 * site path `/login?sso=<groupId>` (the login page starts that group's provider at once) while the
 * group's provider is enabled; null otherwise (and without groupId), when the plain /login applies.
 */
export const loginUrlSchema = z.object({ url: z.string().nullable() });
export type LoginUrl = z.infer<typeof loginUrlSchema>;

export const loginUrlQuerySchema = z.object({ groupId: z.string().min(1).max(64).optional() });

/** A group's provider as its admins see it: the client secret never leaves the server. */
export const ssoProviderSchema = z.object({
  groupId: z.string(),
  label: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  clientSecretSet: z.boolean(),
  scopes: z.string(),
  usernameClaim: z.string(),
  nameClaim: z.string(),
  mobileClaim: z.string(),
  allowCreate: z.boolean(),
  enabled: z.boolean(),
  /** the redirect URI to register at the provider (this site's /loginCallback) */
  redirectUri: z.string(),
  updatedAt: z.string(),
});
export type SsoProvider = z.infer<typeof ssoProviderSchema>;

export const ssoProviderAnswerSchema = z.object({
  provider: ssoProviderSchema.nullable(),
  /** the redirect URI to register at the provider, also before one is configured */
  redirectUri: z.string(),
});
export type SsoProviderAnswer = z.infer<typeof ssoProviderAnswerSchema>;

const issuerUrl = z
  .string()
  .trim()
  .max(512)
  .refine((value) => {
    try {
      const url = new URL(value);
      const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
      return (
        (url.protocol === 'https:' || (loopback && url.protocol === 'http:')) &&
        !url.username &&
        !url.password &&
        !url.search &&
        !url.hash
      );
    } catch {
      return false;
    }
  }, 'an https URL (http only on loopback), without query or fragment');

/** Scopes: space-separated tokens, openid among them. */
const scopes = z
  .string()
  .trim()
  .max(256)
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/)
  .refine((value) => value.split(' ').includes('openid'), 'the scopes must include openid');

/** PUT groups/{id}/sso. A missing clientSecret keeps the stored one (it is required the first time). */
export const ssoProviderInputSchema = z.object({
  label: z.string().trim().min(1).max(40),
  issuer: issuerUrl,
  clientId: z.string().trim().min(1).max(256),
  clientSecret: z.string().min(1).max(512).optional(),
  scopes: scopes.default('openid profile'),
  usernameClaim: requiredClaim.default('preferred_username'),
  nameClaim: requiredClaim.default('name'),
  mobileClaim: claimName.default(''),
  allowCreate: z.boolean().default(false),
  enabled: z.boolean().default(true),
});
export type SsoProviderInput = z.input<typeof ssoProviderInputSchema>;

/** A row of the platform admin's single-sign-on status (/settings/admin). */
export const ssoStatusRowSchema = z.object({
  groupId: z.string(),
  groupName: z.string(),
  label: z.string(),
  issuer: z.string(),
  enabled: z.boolean(),
  allowCreate: z.boolean(),
  /** identities linked to accounts in the group */
  identities: z.number().int(),
  lastLoginAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type SsoStatusRow = z.infer<typeof ssoStatusRowSchema>;
export const ssoStatusSchema = z.array(ssoStatusRowSchema);
