import { accountCalls, smsAdminCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import { errors } from '../../platform/errors.js';
import type { AccountsService } from './accounts.service.js';

/** The calls of spec 001 §7 "Authentication and accounts" (contracts accountCalls). */
export function accountRoutes(app: FastifyInstance, accounts: AccountsService): void {
  definePublicCallRoute(app, accountCalls.login, {
    summary: 'Log in with username and password',
    handler: ({ body, request }) => accounts.login(body.username, body.password, auditContext(request)),
  });
  definePublicCallRoute(app, accountCalls.register, {
    summary: 'Register (when the domain allows it)',
    handler: ({ body, request }) => accounts.register(body, auditContext(request)),
  });
  defineCallRoute(app, accountCalls.logout, {
    summary: 'Log out: the token stops working at once, on every instance',
    auth: 'account',
    handler: ({ account, request }) => {
      if (!request.sessionId) throw errors.badToken();
      return accounts.logout(account, request.sessionId, auditContext(request));
    },
  });
  defineCallRoute(app, accountCalls.me, {
    summary: 'The signed-in user',
    auth: 'account',
    handler: ({ account }) => accounts.me(account),
  });
  defineCallRoute(app, accountCalls.updateMe, {
    summary: 'Update profile and preferences',
    auth: 'account',
    handler: ({ account, body }) => accounts.updateMe(account, body),
  });
  defineCallRoute(app, accountCalls.suggestions, {
    summary: 'Find accounts by username or name',
    auth: 'account',
    handler: ({ account, query }) => accounts.suggestions(account, query.q),
  });
  defineCallRoute(app, accountCalls.changePassword, {
    summary: 'Change own password (answers a new token)',
    auth: 'account',
    handler: ({ account, body, request }) => accounts.changePassword(account, body, auditContext(request)),
  });
  definePublicCallRoute(app, accountCalls.updatePassword, {
    summary: 'Replace an expired password',
    handler: ({ body, request }) => accounts.updateExpiredPassword(body, auditContext(request)),
  });
  defineCallRoute(app, accountCalls.permissions, {
    summary: 'Permission entries per bucket',
    auth: 'account',
    handler: ({ account }) => accounts.permissions(account),
  });
  defineCallRoute(app, accountCalls.organizations, {
    summary: 'Organizations of the signed-in user',
    auth: 'account',
    handler: ({ account }) => accounts.organizations(account),
  });
  definePublicCallRoute(app, accountCalls.maskedMobile, {
    summary: 'Masked mobile for password reset',
    handler: ({ params, request }) => accounts.maskedMobile(params.name, auditContext(request)),
  });
  definePublicCallRoute(app, accountCalls.sendResetCode, {
    summary: 'Send a password reset code by SMS',
    handler: ({ params, request }) => accounts.mobile.sendResetCode(params.name, auditContext(request)),
  });
  definePublicCallRoute(app, accountCalls.resetPassword, {
    summary: 'Reset the password with an SMS code',
    handler: ({ params, body, request }) => accounts.mobile.resetPassword(params.name, body, auditContext(request)),
  });
  defineCallRoute(app, accountCalls.sendBindMobileCode, {
    summary: 'Send a code to the mobile number to bind',
    auth: 'account',
    handler: ({ account, body, request }) => accounts.mobile.sendBindCode(account, body.mobile, auditContext(request)),
  });
  defineCallRoute(app, smsAdminCalls.status, {
    summary: 'The SMS service in effect (platform admin; never the secret)',
    auth: 'platformAdmin',
    handler: () => accounts.mobile.status(),
  });
  defineCallRoute(app, smsAdminCalls.save, {
    summary: "The platform's own SMS account, or no codes, in place of the environment's (platform admin)",
    auth: 'platformAdmin',
    handler: ({ account, body, request }) => accounts.mobile.saveAccount(account, body, auditContext(request)),
  });
  defineCallRoute(app, smsAdminCalls.reset, {
    summary: "Back to the environment's SMS service (platform admin)",
    auth: 'platformAdmin',
    handler: ({ account, request }) => accounts.mobile.resetAccount(account, auditContext(request)),
  });
  defineCallRoute(app, smsAdminCalls.test, {
    summary: 'Send a test message through the SMS service (platform admin)',
    auth: 'platformAdmin',
    handler: ({ account, body, request }) => accounts.mobile.sendTest(account, body.mobile, auditContext(request)),
  });
  defineCallRoute(app, accountCalls.bindMobile, {
    summary: 'Bind the mobile number with the code sent to it',
    auth: 'account',
    handler: ({ account, body, request }) => accounts.bindMobile(account, body, auditContext(request)),
  });
}
