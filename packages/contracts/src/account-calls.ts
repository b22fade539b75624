import { z } from 'zod';
import { defineCall } from './call.js';
import {
  accountSuggestionsSchema,
  bindMobileCodeRequestSchema,
  bindMobileRequestSchema,
  changePasswordRequestSchema,
  loginRequestSchema,
  maskedMobileSchema,
  myOrganizationsSchema,
  passwordResetRequestSchema,
  permissionsSchema,
  registerRequestSchema,
  suggestionsQuerySchema,
  tokenInfoSchema,
  updateMeRequestSchema,
  updatePasswordRequestSchema,
  userSchema,
} from './accounts.js';

const nameParams = z.object({ name: z.string().min(1).max(64) });

/**
 * The calls of spec 001 §7 "Authentication and accounts", one entry each: the server's routes
 * (modules/accounts/accounts.routes.ts) and the web's client (api/accounts.ts) are built from these.
 * The `:name` of the password-reset calls is a username.
 */
export const accountCalls = {
  login: defineCall({ method: 'POST', path: 'accounts/login-in', body: loginRequestSchema, answer: tokenInfoSchema }),
  register: defineCall({
    method: 'POST',
    path: 'accounts',
    body: registerRequestSchema,
    answer: tokenInfoSchema,
    status: 201,
  }),
  logout: defineCall({ method: 'POST', path: 'accounts/logout', status: 204 }),
  me: defineCall({ method: 'GET', path: 'accounts/me', answer: userSchema }),
  updateMe: defineCall({ method: 'PATCH', path: 'accounts/me', body: updateMeRequestSchema, answer: userSchema }),
  suggestions: defineCall({
    method: 'GET',
    path: 'accounts/suggestions',
    query: suggestionsQuerySchema,
    answer: accountSuggestionsSchema,
  }),
  changePassword: defineCall({
    method: 'POST',
    path: 'accounts/change-password',
    body: changePasswordRequestSchema,
    answer: tokenInfoSchema,
  }),
  /** public: the password-expired path, the old password proves the caller */
  updatePassword: defineCall({
    method: 'POST',
    path: 'accounts/update-password',
    body: updatePasswordRequestSchema,
    answer: tokenInfoSchema,
  }),
  permissions: defineCall({ method: 'GET', path: 'accounts/me/permissions', answer: permissionsSchema }),
  organizations: defineCall({ method: 'GET', path: 'accounts/me/organizations', answer: myOrganizationsSchema }),
  maskedMobile: defineCall({
    method: 'GET',
    path: 'accounts/:name/mobile',
    params: nameParams,
    answer: maskedMobileSchema,
  }),
  sendResetCode: defineCall({
    method: 'POST',
    path: 'accounts/:name/code/reset-password',
    params: nameParams,
    status: 204,
  }),
  resetPassword: defineCall({
    method: 'POST',
    path: 'accounts/:name/password/reset',
    params: nameParams,
    body: passwordResetRequestSchema,
    status: 204,
  }),
  sendBindMobileCode: defineCall({
    method: 'POST',
    path: 'accounts/me/code/bind-mobile',
    body: bindMobileCodeRequestSchema,
    status: 204,
  }),
  bindMobile: defineCall({
    method: 'POST',
    path: 'accounts/me/mobile/bind',
    body: bindMobileRequestSchema,
    answer: userSchema,
  }),
} as const;
