import { wxLoginCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { WxLoginService } from './wxlogin.service.js';

/** WeChat website login (contracts wxLoginCalls; docs/wechat-login.md). accounts/auth?type=wx is in sso.routes.ts. */
export function wxLoginRoutes(app: FastifyInstance, wx: WxLoginService): void {
  const noStore = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

  definePublicCallRoute(app, wxLoginCalls.callback, {
    summary: 'WeChat login: finish a state with WeChat’s code (once): signed in, or a ticket to bind',
    handler: ({ query, request, reply }) => {
      void reply.headers(noStore);
      return wx.callback(query, auditContext(request));
    },
  });
  definePublicCallRoute(app, wxLoginCalls.bind, {
    summary: 'WeChat login: link the ticket’s WeChat to the account the password proves, and sign in',
    handler: ({ body, request, reply }) => {
      void reply.headers(noStore);
      return wx.bind(body, auditContext(request));
    },
  });
  definePublicCallRoute(app, wxLoginCalls.register, {
    summary: 'WeChat login: create an account (no password) for the ticket’s WeChat, and sign in',
    handler: ({ body, request, reply }) => {
      void reply.headers(noStore);
      return wx.register(body, auditContext(request));
    },
  });
  defineCallRoute(app, wxLoginCalls.link, {
    summary: 'Whether a WeChat is linked to the caller’s account',
    auth: 'account',
    handler: ({ account }) => wx.link(account),
  });
  defineCallRoute(app, wxLoginCalls.unlink, {
    summary: 'Unlink the caller’s WeChat (refused for an account without a password)',
    auth: 'account',
    handler: ({ account, request }) => wx.unlink(account, auditContext(request)),
  });
}
