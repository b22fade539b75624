import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountRow } from '../db/schema.js';
import { errors } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The call runs without a token (spec 001 §8 public list and other public pages). */
    public?: boolean;
  }
  interface FastifyRequest {
    account: AccountRow | null;
  }
}

export type Authenticate = (token: string) => Promise<AccountRow>;

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

/**
 * Authentication runs first (onRequest, before the body is read): a call that is not public needs
 * a valid bearer token. A public call with a token still learns who is calling, but a bad token
 * there is ignored rather than refused.
 */
export function installAuth(app: FastifyInstance, authenticate: Authenticate): void {
  app.decorateRequest('account', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const isPublic = request.routeOptions.config.public === true;
    const token = bearer(request);
    if (token === null) {
      if (isPublic) return;
      throw errors.unauthenticated();
    }
    if (token === '') {
      if (isPublic) return;
      throw errors.badToken();
    }
    try {
      request.account = await authenticate(token);
    } catch (err) {
      if (!isPublic) throw err;
    }
  });
}
