import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AccountRow } from '../db/schema.js';
import { errors } from './errors.js';

type Schema = z.ZodType | undefined;
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface RouteInput<B extends Schema, Q extends Schema, P extends Schema> {
  body: Infer<B>;
  query: Infer<Q>;
  params: Infer<P>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface AuthedInput<B extends Schema, Q extends Schema, P extends Schema> extends RouteInput<B, Q, P> {
  account: AccountRow;
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

/**
 * Declares one API call: the contract schemas validate it and document it in OpenAPI, and
 * `public` says whether it runs without a token (spec 001 §8). Everything else needs one.
 */
export function defineRoute<B extends Schema, Q extends Schema, P extends Schema, R extends Schema>(
  app: FastifyInstance,
  def: Common<B, Q, P, R> &
    (
      | { public: true; handler: (input: RouteInput<B, Q, P>) => Promise<Result<R>> | Result<R> }
      | { public?: false; handler: (input: AuthedInput<B, Q, P>) => Promise<Result<R>> | Result<R> }
    ),
): void {
  const status = def.status ?? 200;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.url,
    config: { public: def.public === true },
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
      let result: unknown;
      if (def.public === true) {
        result = await def.handler(base);
      } else {
        const account = request.account;
        if (!account) throw errors.unauthenticated();
        result = await def.handler({ ...base, account });
      }
      void reply.status(status);
      return status === 204 ? reply.send() : result;
    },
  });
}
