import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountRow } from '../db/schema.js';
import { findBucketFacts, rememberScope, type CallerScope } from './access.js';
import { writeAudit, auditContext } from './audit.js';
import { decide, decideGroup, type Decision } from './authz.js';
import type { Db } from './db.js';
import { errors } from './errors.js';
import type { RawInput } from './route.js';

declare module 'fastify' {
  interface FastifyRequest {
    account: AccountRow | null;
    /** the server-side session of the caller's token (its jti) */
    sessionId: string | null;
    /**
     * Signs in the caller with a token its body carries (spec 001 §8 "or when the body carries its
     * own token": a public route's handler, after the body is read); throws as a bad bearer does.
     */
    accountOfToken(token: string): Promise<AccountRow>;
  }
}

export type Authenticate = (token: string) => Promise<{ account: AccountRow; scope: CallerScope; sessionId: string }>;

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

/**
 * Authentication then authorization, both in onRequest (before the body is read). A route with
 * no auth declaration is refused outright, so a route can never be added open by accident.
 */
export function installAuth(app: FastifyInstance, db: Db, authenticate: Authenticate): void {
  app.decorateRequest('account', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('access', null);
  app.decorateRequest('bucket', null);
  app.decorateRequest('groupId', null);
  app.decorateRequest('accountOfToken', async function accountOfToken(token: string) {
    const found = await authenticate(token);
    rememberScope(found.account, found.scope);
    return found.account;
  });
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const auth = request.routeOptions.config.auth;
    if (auth === undefined) throw errors.forbidden('undeclared');
    const isPublic = auth === 'public';
    const token = bearer(request);
    if (token === null) {
      if (isPublic) return;
      throw errors.unauthenticated();
    }
    if (token === '') {
      if (isPublic) return;
      throw errors.badToken();
    }
    let scope: CallerScope;
    try {
      const found = await authenticate(token);
      request.account = found.account;
      request.sessionId = found.sessionId;
      scope = found.scope;
    } catch (err) {
      if (!isPublic) throw err;
      return;
    }
    rememberScope(request.account, scope);
    if (isPublic || auth === 'account') return;
    const account = request.account;
    if (auth === 'platformAdmin') {
      if (!account.isPlatformAdmin) await deny(db, request, 'forbidden', 'platform_admin');
      return;
    }
    const raw: RawInput = {
      params: request.params as Record<string, string>,
      query: request.query as RawInput['query'],
      callerId: account.id,
    };
    request.access = scope.access;
    if ('power' in auth) {
      const groupId = await auth.group(raw);
      const decision = decideGroup(request.access, auth.power, groupId);
      if (decision !== 'allow') await deny(db, request, decision, auth.power);
      request.groupId = groupId!;
      return;
    }
    const bucketId = await auth.owner(raw);
    const bucket = bucketId
      ? (scope.facts.find((b) => b.id === bucketId) ?? (await findBucketFacts(db, bucketId)))
      : undefined;
    const decision = decide(request.access, auth.action, bucket);
    if (decision !== 'allow') await deny(db, request, decision, auth.action, bucketId);
    request.bucket = bucket!;
  });
}

/** Records the denial (a security event) and answers 404 or 403. */
async function deny(
  db: Db,
  request: FastifyRequest,
  decision: Exclude<Decision, 'allow'>,
  action: string,
  bucketId?: string,
): Promise<never> {
  await writeAudit(db, auditContext(request), {
    action: 'permission.denied',
    outcome: 'denied',
    actorId: request.account?.id ?? null,
    actorUsername: request.account?.username ?? null,
    ...(bucketId ? { bucketId } : {}),
    details: { action, route: `${request.method} ${request.routeOptions.url}`, decision },
  });
  throw decision === 'notFound' ? errors.notFound() : errors.forbidden(action);
}
