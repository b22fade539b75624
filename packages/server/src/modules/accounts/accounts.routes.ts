import {
  accountSuggestionsSchema,
  changePasswordRequestSchema,
  loginRequestSchema,
  maskedMobileSchema,
  passwordResetRequestSchema,
  myOrganizationsSchema,
  permissionsSchema,
  registerRequestSchema,
  suggestionsQuerySchema,
  tokenInfoSchema,
  updateMeRequestSchema,
  updatePasswordRequestSchema,
  userSchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import { errors } from '../../platform/errors.js';
import { definePublicRoute, defineRoute } from '../../platform/route.js';
import type { AccountsService } from './accounts.service.js';

const nameParams = z.object({ name: z.string().min(1).max(64) });

export function accountRoutes(app: FastifyInstance, accounts: AccountsService): void {
  definePublicRoute(app, {
    method: 'POST',
    url: 'accounts/login-in',
    summary: 'Log in with username and password',
    body: loginRequestSchema,
    response: tokenInfoSchema,
    handler: ({ body, request }) => accounts.login(body.username, body.password, auditContext(request)),
  });
  definePublicRoute(app, {
    method: 'POST',
    url: 'accounts',
    summary: 'Register (when the domain allows it)',
    status: 201,
    body: registerRequestSchema,
    response: tokenInfoSchema,
    handler: ({ body, request }) => accounts.register(body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'accounts/logout',
    summary: 'Log out: the token stops working at once, on every instance',
    auth: 'account',
    status: 204,
    handler: ({ account, request }) => {
      if (!request.sessionId) throw errors.badToken();
      return accounts.logout(account, request.sessionId, auditContext(request));
    },
  });
  defineRoute(app, {
    method: 'GET',
    url: 'accounts/me',
    summary: 'The signed-in user',
    auth: 'account',
    response: userSchema,
    handler: ({ account }) => accounts.me(account),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: 'accounts/me',
    summary: 'Update profile and preferences',
    auth: 'account',
    body: updateMeRequestSchema,
    response: userSchema,
    handler: ({ account, body }) => accounts.updateMe(account, body),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'accounts/suggestions',
    summary: 'Find accounts by username or name',
    auth: 'account',
    query: suggestionsQuerySchema,
    response: accountSuggestionsSchema,
    handler: ({ account, query }) => accounts.suggestions(account, query.q),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'accounts/change-password',
    summary: 'Change own password (answers a new token)',
    auth: 'account',
    body: changePasswordRequestSchema,
    response: tokenInfoSchema,
    handler: ({ account, body, request }) => accounts.changePassword(account, body, auditContext(request)),
  });
  definePublicRoute(app, {
    method: 'POST',
    url: 'accounts/update-password',
    summary: 'Replace an expired password',
    body: updatePasswordRequestSchema,
    response: tokenInfoSchema,
    handler: ({ body, request }) => accounts.updateExpiredPassword(body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'accounts/me/permissions',
    summary: 'Permission entries per bucket',
    auth: 'account',
    response: permissionsSchema,
    handler: ({ account }) => accounts.permissions(account),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'accounts/me/organizations',
    summary: 'Organizations of the signed-in user',
    auth: 'account',
    response: myOrganizationsSchema,
    handler: ({ account }) => accounts.organizations(account),
  });
  definePublicRoute(app, {
    method: 'GET',
    url: 'accounts/:name/mobile',
    summary: 'Masked mobile for password reset',
    params: nameParams,
    response: maskedMobileSchema,
    handler: ({ params, request }) => accounts.maskedMobile(params.name, auditContext(request)),
  });
  definePublicRoute(app, {
    method: 'POST',
    url: 'accounts/:name/code/reset-password',
    summary: 'Send a password reset code by SMS',
    params: nameParams,
    status: 204,
    handler: ({ params, request }) => accounts.sendResetCode(params.name, auditContext(request)),
  });
  definePublicRoute(app, {
    method: 'POST',
    url: 'accounts/:name/password/reset',
    summary: 'Reset the password with an SMS code',
    params: nameParams,
    body: passwordResetRequestSchema,
    status: 204,
    handler: ({ params, request }) => accounts.resetPasswordWithCode(params.name, auditContext(request)),
  });
}
