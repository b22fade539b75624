import type { Call } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { definePublicRoute, defineRoute, type AuthedInput, type RouteInput } from './route.js';

type Schema = z.ZodType | undefined;
/** what the handler answers: the answer's input, or nothing for a 204 or a file it sends itself */
type Result<R extends Schema> = R extends z.ZodType ? z.input<R> : void;
type Auth = Parameters<typeof defineRoute>[1]['auth'];

/** What a route takes from its contract entry. */
const fromCall = <P extends Schema, Q extends Schema, B extends Schema, A extends Schema>(
  call: Call<Call['method'], string, P, Q, B, A>,
) => ({
  method: call.method,
  url: call.path,
  params: call.params,
  query: call.query,
  body: call.body,
  response: call.answer,
  status: call.status,
});

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
  defineRoute<B, Q, P, Schema>(app, {
    ...fromCall(call),
    ...def,
  });
}

/** The same for a call anyone may make (spec 001 §8 public list: upload links, attachment codes). */
export function definePublicCallRoute<P extends Schema, Q extends Schema, B extends Schema, A extends Schema>(
  app: FastifyInstance,
  call: Call<Call['method'], string, P, Q, B, A>,
  def: { summary: string; handler: (input: RouteInput<B, Q, P>) => Promise<Result<A>> | Result<A> },
): void {
  definePublicRoute<B, Q, P, Schema>(app, {
    ...fromCall(call),
    ...def,
  });
}
