import { defineCall } from './call.js';
import { idParams } from './report-calls.js';
import {
  authAnswerSchema,
  authQuerySchema,
  authTokenQuerySchema,
  loginUrlQuerySchema,
  loginUrlSchema,
  ssoProviderAnswerSchema,
  ssoLinksSchema,
  ssoProviderInputSchema,
  ssoStatusSchema,
  ssoTokenInfoSchema,
} from './sso.js';

const groupParams = idParams('groupId');

/**
 * Single sign-on (spec 001 §7 "Authentication and accounts": GET accounts/auth?type, GET
 * auth/token?code&state, GET login-url; issue 27). The server's routes are in
 * modules/accounts/sso.routes.ts, the web's client in api/sso.ts.
 */
export const ssoCalls = {
  /** public (tokenless): the enabled providers, or with groupId the authorization request's url */
  auth: defineCall({ method: 'GET', path: 'accounts/auth', query: authQuerySchema, answer: authAnswerSchema }),
  /** public (tokenless): /loginCallback hands over the provider's code and state; single use */
  token: defineCall({ method: 'GET', path: 'auth/token', query: authTokenQuerySchema, answer: ssoTokenInfoSchema }),
  /** public: where a signed-out SSO user of a group signs in again (see loginUrlSchema) */
  loginUrl: defineCall({ method: 'GET', path: 'login-url', query: loginUrlQuerySchema, answer: loginUrlSchema }),
  /** the group's provider (group admins; never the client secret) */
  provider: defineCall({
    method: 'GET',
    path: 'groups/:groupId/sso',
    params: groupParams,
    answer: ssoProviderAnswerSchema,
  }),
  saveProvider: defineCall({
    method: 'PUT',
    path: 'groups/:groupId/sso',
    params: groupParams,
    body: ssoProviderInputSchema,
    answer: ssoProviderAnswerSchema,
  }),
  removeProvider: defineCall({ method: 'DELETE', path: 'groups/:groupId/sso', params: groupParams, status: 204 }),
  /** the caller's links to its groups' single sign-on, and those it may still link */
  links: defineCall({ method: 'GET', path: 'accounts/me/sso', answer: ssoLinksSchema }),
  /**
   * the caller (signed in by its password) starts its group's sign-in to link the identity it signs
   * in with there to this account: the authorization request's url, like GET accounts/auth
   */
  startLink: defineCall({
    method: 'POST',
    path: 'accounts/me/sso/:groupId/link',
    params: groupParams,
    answer: authAnswerSchema,
  }),
  /** removes the caller's link in the group (refused for an account without a password) */
  unlink: defineCall({ method: 'DELETE', path: 'accounts/me/sso/:groupId', params: groupParams, status: 204 }),
  /** platform admins: every group's provider and its use (/settings/admin) */
  status: defineCall({ method: 'GET', path: 'admin/sso-providers', answer: ssoStatusSchema }),
} as const;
