import { ssoCalls } from '@yyp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { SsoService } from './sso.service.js';

const HOST = /^[A-Za-z0-9.\-_~]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * This site's /loginCallback, the redirect URI registered at the providers: under PUBLIC_BASE_URL
 * when configured; otherwise at the scheme and Host the request came with (Fastify reads
 * X-Forwarded-* only from a trusted proxy, TRUST_PROXY).
 */
export function callbackUrl(request: FastifyRequest, publicBaseUrl: string | undefined): string {
  if (publicBaseUrl) return `${publicBaseUrl.replace(/\/+$/, '')}/loginCallback`;
  const proto = request.protocol === 'https' ? 'https' : 'http';
  const host = HOST.test(request.host) ? request.host : 'localhost';
  return `${proto}://${host}/loginCallback`;
}

/** Single sign-on (contracts ssoCalls; docs/sso.md). */
export function ssoRoutes(app: FastifyInstance, sso: SsoService, publicBaseUrl: string | undefined): void {
  const groupAdmin = { power: 'group_manage', group: ({ params }: RawInput) => params.groupId } as const;
  const noStore = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

  definePublicCallRoute(app, ssoCalls.auth, {
    summary: 'Single sign-on: the enabled providers, or with groupId the authorization request to go to',
    handler: ({ query, request, reply }) => {
      void reply.headers(noStore);
      return sso.auth(query, callbackUrl(request, publicBaseUrl), auditContext(request));
    },
  });
  definePublicCallRoute(app, ssoCalls.token, {
    summary: 'Single sign-on: finish the sign-in of a state with the provider’s code (once) and answer a token',
    handler: ({ query, request, reply }) => {
      void reply.headers(noStore);
      return sso.token(query, callbackUrl(request, publicBaseUrl), auditContext(request));
    },
  });
  definePublicCallRoute(app, ssoCalls.loginUrl, {
    summary: 'Where a signed-out single-sign-on user of a group signs in again (or null)',
    handler: ({ query }) => sso.loginUrl(query.groupId),
  });
  defineCallRoute(app, ssoCalls.provider, {
    summary: 'The group’s single sign-on provider (never the client secret)',
    auth: groupAdmin,
    handler: ({ groupId, request }) => sso.providers.provider(groupId, callbackUrl(request, publicBaseUrl)),
  });
  defineCallRoute(app, ssoCalls.saveProvider, {
    summary: 'Configure the group’s single sign-on provider (the issuer’s discovery is checked first)',
    auth: groupAdmin,
    handler: ({ account, groupId, body, request }) =>
      sso.providers.saveProvider(account, groupId, body, callbackUrl(request, publicBaseUrl), auditContext(request)),
  });
  defineCallRoute(app, ssoCalls.removeProvider, {
    summary: 'Remove the group’s single sign-on provider',
    auth: groupAdmin,
    handler: ({ account, groupId, request }) => sso.providers.removeProvider(account, groupId, auditContext(request)),
  });
  defineCallRoute(app, ssoCalls.links, {
    summary: 'The caller’s links to its groups’ single sign-on, and the ones it may still link',
    auth: 'account',
    handler: ({ account }) => sso.links(account),
  });
  defineCallRoute(app, ssoCalls.startLink, {
    summary: 'Start the group’s sign-in to link the identity it comes back with to the caller’s account',
    auth: 'account',
    handler: ({ account, params, request, reply }) => {
      void reply.headers(noStore);
      return sso.startLink(account, params.groupId, callbackUrl(request, publicBaseUrl), auditContext(request));
    },
  });
  defineCallRoute(app, ssoCalls.unlink, {
    summary: 'Remove the caller’s single sign-on link in the group (not from an account without a password)',
    auth: 'account',
    handler: ({ account, params, request }) => sso.unlink(account, params.groupId, auditContext(request)),
  });
  defineCallRoute(app, ssoCalls.status, {
    summary: 'Every group’s single sign-on provider and its use (platform admins)',
    auth: 'platformAdmin',
    handler: () => sso.providers.status(),
  });
}
