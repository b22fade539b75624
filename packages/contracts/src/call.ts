import type { z } from 'zod';

/**
 * One call of the API (spec 001 §7) in one place: its method, its path under API_BASE (path
 * parameters written `:name`) and the schemas of its parameters, query, body and answer. The
 * server's route (`defineCallRoute`), the web's client (`callApi`) and the web tests' fake API
 * (`installFakeApi` keyed by `callKey`) all read the same entry, so a path or a schema cannot drift
 * between them, and `grep -rn "reports/:reportId/approve"` finds the call.
 */
export type CallMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Schema = z.ZodType | undefined;

export interface Call<
  M extends CallMethod = CallMethod,
  Path extends string = string,
  P extends Schema = Schema,
  Q extends Schema = Schema,
  B extends Schema = Schema,
  A extends Schema = Schema,
> {
  readonly method: M;
  readonly path: Path;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** the answer's schema; none for a call answered with no body (204) or with a file */
  readonly answer?: A;
  /** HTTP status of a successful answer (default 200) */
  readonly status?: number;
}

/** The parameter names of a path: `PathParams<'a/:x/b/:y'>` is `'x' | 'y'`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<Rest>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** What a call's answer is on the wire (the schema's output, as the server serializes it). */
export type CallAnswer<C> =
  C extends Call<CallMethod, string, Schema, Schema, Schema, infer A>
    ? A extends z.ZodType
      ? z.output<A>
      : undefined
    : never;
/** What a caller sends as the body (the schema's input). */
export type CallBody<C> =
  C extends Call<CallMethod, string, Schema, Schema, infer B, Schema>
    ? B extends z.ZodType
      ? z.input<B>
      : undefined
    : never;
/** What a caller sends as the query (the schema's input). */
export type CallQuery<C> =
  C extends Call<CallMethod, string, Schema, infer Q, Schema, Schema>
    ? Q extends z.ZodType
      ? z.input<Q>
      : undefined
    : never;

const SEGMENT = /^(?::[A-Za-z][A-Za-z0-9]*|[A-Za-z0-9._~-]+)$/;

/**
 * A call's entry. The path is relative to API_BASE, without a leading slash, each segment a literal
 * or one `:name` parameter (checked here, so a malformed entry fails when the contracts load).
 */
export function defineCall<
  const M extends CallMethod,
  const Path extends string,
  P extends Schema = undefined,
  Q extends Schema = undefined,
  B extends Schema = undefined,
  A extends Schema = undefined,
>(call: Call<M, Path, P, Q, B, A>): Call<M, Path, P, Q, B, A> {
  const segments = call.path.split('/');
  if (call.path.startsWith('/') || segments.some((s) => !SEGMENT.test(s))) {
    throw new Error(`malformed call path ${JSON.stringify(call.path)}`);
  }
  const names = segments.filter((s) => s.startsWith(':'));
  if (new Set(names).size !== names.length) throw new Error(`repeated parameter in ${call.path}`);
  if (call.body && call.method === 'GET') throw new Error(`GET ${call.path} cannot take a body`);
  return Object.freeze({ ...call });
}

/** "METHOD path", the call's key (the fake API's handler keys, route tables, logs). */
export function callKey(call: Pick<Call, 'method' | 'path'>): string {
  return `${call.method} ${call.path}`;
}

/** The concrete path of a call: each `:name` replaced by its parameter, URL-encoded. */
export function callPath<Path extends string>(
  call: { path: Path },
  params: Record<PathParams<Path>, string | number>,
): string {
  const given = params as Record<string, string | number | undefined>;
  return call.path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const value = given[segment.slice(1)];
      if (value === undefined || value === '') throw new Error(`${call.path}: no value for ${segment}`);
      return encodeURIComponent(String(value));
    })
    .join('/');
}

/**
 * The parameters of a concrete path if it is an instance of the call's path pattern, else null
 * (the web tests' fake API finds its handler by this).
 */
export function matchCallPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (g === '') return null;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return null;
      }
    } else if (w !== g) {
      return null;
    }
  }
  return params;
}
