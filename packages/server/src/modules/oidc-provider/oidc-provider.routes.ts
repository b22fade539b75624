import { oidcProviderCalls } from '@yyp/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import { AppError, errors } from '../../platform/errors.js';
import { OAuthError, type OidcProviderService } from './oidc-provider.service.js';

/** Where the provider's endpoints live: the issuer is PUBLIC_BASE_URL + this. */
export const OIDC_PROVIDER_PREFIX = '/yyp/oidc';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache', 'referrer-policy': 'no-referrer' };
type Params = Record<string, string | undefined>;

/** Query or form parameters: strings only (a parameter given twice keeps its last value). */
function paramsOf(value: unknown): Params {
  const out: Params = {};
  if (!value || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
    else if (Array.isArray(v) && typeof v.at(-1) === 'string') out[k] = v.at(-1) as string;
  }
  return out;
}

function bearerOf(request: FastifyRequest): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) throw new OAuthError('invalid_token', 'A bearer access token is required', 401);
  return match[1]!;
}

/**
 * The provider's own endpoints (OpenID Connect Discovery, RFC 6749, RFC 7636, RP-initiated logout)
 * under /yyp/oidc, outside the API: standard paths, form bodies and OAuth error answers
 * (`{ error, error_description }`). The registered viewers' origins may read them (CORS, no cookies).
 */
export async function oidcProviderRoutes(app: FastifyInstance, provider: OidcProviderService): Promise<void> {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const origins = new Set(provider.clientOrigins());
  const allow = (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin && origins.has(origin)) void reply.header('access-control-allow-origin', origin);
    void reply.header('vary', 'Origin');
  };
  app.addHook('onSend', async (request, reply, payload) => {
    allow(request, reply);
    return payload;
  });
  app.setErrorHandler(async (err: Error, _request, reply) => {
    if (err instanceof OAuthError) {
      void reply.code(err.status).headers(NO_STORE);
      if (err.status === 401 && err.error === 'invalid_token') void reply.header('www-authenticate', 'Bearer');
      return { error: err.error, error_description: err.description };
    }
    if (err instanceof AppError && (err.code === 'TokenExpiredError' || err.code === 'JsonWebTokenError')) {
      void reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"');
      return { error: 'invalid_token', error_description: err.message };
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      void reply.code(status);
      return { error: 'invalid_request', error_description: err.message };
    }
    throw err;
  });

  app.options('/*', async (request, reply) => {
    allow(request, reply);
    return reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header('access-control-allow-headers', 'Authorization, Content-Type')
      .header('access-control-max-age', '600')
      .send();
  });
  app.get('/.well-known/openid-configuration', async (_request, reply) => {
    void reply.header('cache-control', 'public, max-age=300');
    return provider.discovery();
  });
  app.get('/jwks', async (_request, reply) => {
    void reply.header('cache-control', 'public, max-age=300').type('application/jwk-set+json');
    return provider.jwks();
  });
  app.get('/auth', async (request, reply) => {
    const { redirect } = provider.authorize(paramsOf(request.query));
    return reply.headers(NO_STORE).redirect(redirect, 302);
  });
  app.post('/token', async (request, reply) => {
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      throw new OAuthError('invalid_request', 'The token request is application/x-www-form-urlencoded');
    }
    void reply.headers(NO_STORE);
    return provider.token(paramsOf(request.body), auditContext(request));
  });
  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.headers(NO_STORE);
    return provider.userinfo(bearerOf(request));
  };
  app.get('/me', userinfo);
  app.post('/me', userinfo);
  app.get('/session/end', async (request, reply) => {
    const { redirect } = await provider.endSession(paramsOf(request.query));
    void reply.headers(NO_STORE);
    if (redirect) return reply.redirect(redirect, 302);
    return reply.type('text/plain; charset=utf-8').send('Signed out of the viewer. / 已退出影像浏览器。');
  });
}

/** The sign-in page's two calls (contracts oidcProviderCalls), on the API; 404 while no viewer is configured. */
export function oidcInteractionRoutes(app: FastifyInstance, provider: OidcProviderService | null): void {
  const configured = () => {
    if (!provider) throw errors.notFound('OpenID Connect provider');
    return provider;
  };
  defineCallRoute(app, oidcProviderCalls.interaction, {
    summary: 'A viewer’s sign-in through yyp (OpenID Connect): which viewer asks',
    auth: 'account',
    handler: ({ query, request }) => {
      if (!request.sessionId) throw errors.unauthenticated();
      return configured().interaction(request.sessionId, query.interaction);
    },
  });
  defineCallRoute(app, oidcProviderCalls.decide, {
    summary: 'A viewer’s sign-in through yyp: allow (a code bound to this session) or deny',
    auth: 'account',
    handler: ({ account, body, request }) => {
      const sessionId = request.sessionId;
      if (!sessionId) throw errors.unauthenticated();
      return configured().decide({ account, sessionId }, body, auditContext(request));
    },
  });
}
