import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AccountRow } from '../db/schema.js';
import type { BucketAction, BucketFacts, CallerAccess, GroupPower } from './authz.js';
import type { Db } from './db.js';
import { errors } from './errors.js';

type Schema = z.ZodType | undefined;
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** What a resolver sees: the raw path parameters and query, before the body is read. */
export interface RawInput {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  /** the authenticated caller */
  callerId: string;
}
/** Names the owner of a call's resource (an organization id, or a group id), undefined when none. */
export type Resolve = (input: RawInput) => string | undefined | Promise<string | undefined>;

/**
 * An ownership look-up: which organization (or group) owns the row with this id, undefined when
 * there is none. Each module keeps its look-ups in its store and names them in `<module>.owners.ts`;
 * another module's are reached through its face (e.g. `ownerOfExam` from modules/exams/index.ts).
 */
export type OwnerLookup = (db: Db, id: string, callerId?: string) => Promise<string | undefined>;

/**
 * A resolver that asks `lookup` who owns the row named by path parameter `param` ('' when absent),
 * for the caller: a look-up may answer none for a row the caller may not see even in its owner
 * (an exam's: a consultation's copy seen only by the consultation's participants, issue 25).
 */
export function ownerFrom(param: string, lookup: OwnerLookup, db: Db): Resolve {
  return ({ params, callerId }) => lookup(db, params[param] ?? '', callerId);
}

/**
 * Every route declares who may call it (DESIGN.md "Authorization is server-side, first, and
 * declarative"). It is checked in onRequest, before the body is parsed:
 * - `public`: anyone (spec 001 §8 public list, password-expired path, health);
 * - `account`: any signed-in account, acting on itself;
 * - `platformAdmin`: the domain's platform admins;
 * - `{ power, group }`: a group power in the group that owns the resource (the resolver names it);
 * - `{ action, owner }`: an action in the organization (bucket) that owns the resource, e.g.
 *   `{ action: 'report_approval', owner: ownerFrom('reportId', ownerOfReport, db) }`.
 * A group or organization the caller cannot see answers 404; a missing power or action answers 403.
 */
export type RouteAuth =
  | 'public'
  | 'account'
  | 'platformAdmin'
  | { power: GroupPower; group: Resolve }
  | { action: BucketAction; owner: Resolve };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    access: CallerAccess | null;
    bucket: BucketFacts | null;
    groupId: string | null;
  }
}

export interface RouteInput<B extends Schema, Q extends Schema, P extends Schema> {
  body: Infer<B>;
  query: Infer<Q>;
  params: Infer<P>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface AuthedInput<B extends Schema, Q extends Schema, P extends Schema> extends RouteInput<B, Q, P> {
  account: AccountRow;
  /** the caller's memberships (loaded for group and bucket routes, and on demand) */
  access: CallerAccess;
  /** the authorized bucket of a bucket route */
  bucket: BucketFacts;
  /** the authorized group of a group route */
  groupId: string;
}

interface Common<B extends Schema, Q extends Schema, P extends Schema, R extends Schema> {
  method: HTTPMethods;
  url: string;
  summary: string;
  body?: B;
  query?: Q;
  params?: P;
  response?: R;
  /** HTTP status for a successful answer (default 200; 204 sends no body). */
  status?: number;
}

type Result<R extends Schema> = R extends z.ZodType ? z.input<R> : undefined;

/** A call anyone may make (spec 001 §8 public list, the password-expired path, health). */
export function definePublicRoute<B extends Schema, Q extends Schema, P extends Schema, R extends Schema>(
  app: FastifyInstance,
  def: Common<B, Q, P, R> & { handler: (input: RouteInput<B, Q, P>) => Promise<Result<R>> | Result<R> },
): void {
  register(app, def, 'public', (base) => def.handler(base));
}

/** A call that needs a signed-in caller with the declared access. */
export function defineRoute<B extends Schema, Q extends Schema, P extends Schema, R extends Schema>(
  app: FastifyInstance,
  def: Common<B, Q, P, R> & {
    auth: Exclude<RouteAuth, 'public'>;
    handler: (input: AuthedInput<B, Q, P>) => Promise<Result<R>> | Result<R>;
  },
): void {
  register(app, def, def.auth, (base, request) => {
    const account = request.account;
    if (!account) throw errors.unauthenticated();
    const access = request.access ?? { accountId: account.id, groupLevels: new Map(), memberships: new Map() };
    return def.handler({
      ...base,
      account,
      access,
      bucket: request.bucket as BucketFacts,
      groupId: request.groupId as string,
    });
  });
}

function register<B extends Schema, Q extends Schema, P extends Schema, R extends Schema>(
  app: FastifyInstance,
  def: Common<B, Q, P, R>,
  auth: RouteAuth,
  run: (base: RouteInput<B, Q, P>, request: FastifyRequest) => unknown,
): void {
  const status = def.status ?? 200;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.url,
    config: { auth },
    schema: {
      summary: def.summary,
      ...(def.body ? { body: def.body } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.params ? { params: def.params } : {}),
      ...(def.response && status !== 204 ? { response: { [status]: def.response } } : {}),
    },
    handler: async (request, reply) => {
      const base = {
        body: request.body as Infer<B>,
        query: request.query as Infer<Q>,
        params: request.params as Infer<P>,
        request,
        reply,
      };
      const result = await run(base, request);
      // A handler that answered itself (a stream) or chose its status keeps it.
      if (reply.sent) return reply;
      if (reply.statusCode === 200) void reply.status(status);
      return reply.statusCode === 204 ? reply.send() : result;
    },
  });
}
