import { z } from 'zod';
import { loginRequestSchema, registerRequestSchema, tokenInfoSchema } from './accounts.js';
import { defineCall } from './call.js';

/**
 * WeChat website login (spec 001 §7: "Sign in by username and password, by WeChat, or by single
 * sign-on", "GET auth/wx/callback with query code, state, source", "WeChat-login users cannot
 * change their password"; issue 27; docs/wechat-login.md). GET accounts/auth?type=wx answers the
 * QR-code page's url (see sso.ts authAnswerSchema); WeChat sends the browser back to
 * /loginCallback?source=wx&code&state, which hands them to auth/wx/callback.
 */

/** A started WeChat login (its state) and an unlinked identity's ticket are good for this long. */
export const WX_LOGIN_MINUTES = 10;

export const wxCallbackQuerySchema = z.object({
  code: z.string().min(1).max(512),
  state: z.string().min(1).max(256),
  source: z.literal('wx'),
});
export type WxCallbackQuery = z.input<typeof wxCallbackQuerySchema>;

/**
 * signedIn: the identity is linked to an account that may sign in (loginType normal).
 * bind: it is linked to none; the ticket (single use, ten minutes) binds it to an existing account
 * by its password, or creates one when the domain's registration is open (canRegister).
 */
export const wxCallbackAnswerSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('signedIn'),
    token: tokenInfoSchema,
    username: z.string(),
    redirect: z.string().nullable(),
  }),
  z.object({
    status: z.literal('bind'),
    ticket: z.string(),
    nickname: z.string(),
    headimgurl: z.string(),
    canRegister: z.boolean(),
  }),
]);
export type WxCallbackAnswer = z.infer<typeof wxCallbackAnswerSchema>;

const ticketField = z.string().min(1).max(256);

/** POST auth/wx/bind: the password proves the account, as at accounts/login-in. */
export const wxBindRequestSchema = loginRequestSchema.extend({ ticket: ticketField });
export type WxBindRequest = z.input<typeof wxBindRequestSchema>;

/** POST auth/wx/register: a new account without a password (source wx). */
export const wxRegisterRequestSchema = registerRequestSchema.omit({ password: true }).extend({ ticket: ticketField });
export type WxRegisterRequest = z.input<typeof wxRegisterRequestSchema>;

/** What bind and register answer: the session, and where the login was started from (a site path, or null). */
export const wxSignedInSchema = z.object({
  token: tokenInfoSchema,
  username: z.string(),
  redirect: z.string().nullable(),
});
export type WxSignedIn = z.infer<typeof wxSignedInSchema>;

/** GET accounts/me/wx: whether the caller's account has a WeChat linked, and as whom. */
export const wxLinkSchema = z.object({
  linked: z.boolean(),
  nickname: z.string().nullable(),
  headimgurl: z.string().nullable(),
  linkedAt: z.string().nullable(),
  /** false for an account without a password: unlinking would lock it out */
  canUnlink: z.boolean(),
});
export type WxLink = z.infer<typeof wxLinkSchema>;

export const wxLoginCalls = {
  /** public (tokenless): /loginCallback?source=wx hands over WeChat's code and the state; single use */
  callback: defineCall({
    method: 'GET',
    path: 'auth/wx/callback',
    query: wxCallbackQuerySchema,
    answer: wxCallbackAnswerSchema,
  }),
  /** public (tokenless): links the ticket's identity to the account the password proves, and signs in */
  bind: defineCall({ method: 'POST', path: 'auth/wx/bind', body: wxBindRequestSchema, answer: wxSignedInSchema }),
  /** public (tokenless): creates an account for the ticket's identity (registration open), and signs in */
  register: defineCall({
    method: 'POST',
    path: 'auth/wx/register',
    body: wxRegisterRequestSchema,
    answer: wxSignedInSchema,
  }),
  link: defineCall({ method: 'GET', path: 'accounts/me/wx', answer: wxLinkSchema }),
  unlink: defineCall({ method: 'DELETE', path: 'accounts/me/wx', status: 204 }),
} as const;
