import { callPath, type Call, type CallAnswer, type CallBody, type CallQuery, type PathParams } from '@yyp/contracts';
import { apiRequest, type QueryValue, type RequestOptions } from './client';

/** The answer did not match the call's contract (checked in development and tests only). */
export class AnswerMismatchError extends Error {
  constructor(
    readonly call: string,
    readonly issues: string,
  ) {
    super(`${call}: the answer does not match the contract: ${issues}`);
    this.name = 'AnswerMismatchError';
  }
}

/**
 * Whether answers are checked against the contract: in development and in tests (a drift between
 * server and web shows there), never in the production build (no cost for users).
 */
const CHECK_ANSWERS = import.meta.env.MODE !== 'production';

type Input<C extends Call> = (PathParams<C['path']> extends never
  ? { params?: undefined }
  : { params: Record<PathParams<C['path']>, string | number> }) &
  (CallBody<C> extends undefined ? { body?: undefined } : { body: CallBody<C> }) & {
    query?: CallQuery<C> extends undefined ? undefined : CallQuery<C>;
  };

/**
 * A call made from its contract entry (contracts `defineCall`): the method and path come from the
 * entry, path parameters are filled in and encoded, and in development and tests the answer is
 * checked against the entry's answer schema.
 */
export async function callApi<C extends Call>(
  call: C,
  input: Input<C>,
  options: Omit<RequestOptions, 'method' | 'body' | 'query'> = {},
): Promise<CallAnswer<C>> {
  const path = callPath(call, (input.params ?? {}) as Record<PathParams<C['path']>, string | number>);
  const answer = await apiRequest<unknown>(path, {
    ...options,
    method: call.method,
    body: input.body,
    query: input.query as Record<string, QueryValue> | undefined,
  });
  if (CHECK_ANSWERS && call.answer && options.as !== 'blob') {
    const checked = call.answer.safeParse(answer);
    if (!checked.success) {
      const issues = checked.error.issues.map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`).join('; ');
      throw new AnswerMismatchError(`${call.method} ${call.path}`, issues);
    }
  }
  return answer as CallAnswer<C>;
}
