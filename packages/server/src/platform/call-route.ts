import type { Call } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { defineRoute, type AuthedInput } from './route.js';

type Schema = z.ZodType | undefined;
type Result<R extends Schema> = R extends z.ZodType ? z.input<R> : undefined;
type Auth = Parameters<typeof defineRoute>[1]['auth'];

/**
 * A route whose method, path, schemas and success status come from its contract entry (contracts
 * `defineCall`), so the server, the web client and the web tests' fake read one definition. The
 * route adds what only the server knows: its summary, who may call it (`auth`, checked before the
 * body is read, as defineRoute does) and its handler.
 */
export function defineCallRoute<P extends Schema, Q extends Schema, B extends Schema, A extends Schema>(
  app: FastifyInstance,
  call: Call<Call['method'], string, P, Q, B, A>,
  def: {
    summary: string;
    auth: Auth;
    handler: (input: AuthedInput<B, Q, P>) => Promise<Result<A>> | Result<A>;
  },
): void {
  defineRoute<B, Q, P, A>(app, {
    method: call.method,
    url: call.path,
    params: call.params,
    query: call.query,
    body: call.body,
    response: call.answer,
    status: call.status,
    ...def,
  });
}
