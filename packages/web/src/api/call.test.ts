// @vitest-environment jsdom
import { callKey, defineCall } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorAnswer, installFakeApi } from '../test/fakeApi';
import { AnswerMismatchError, callApi } from './call';
import { ApiError } from './errors';

const member = defineCall({
  method: 'PATCH',
  path: 'groups/:groupId/members/:accountId',
  body: z.object({ level: z.enum(['admin', 'member']) }),
  query: z.object({ reason: z.string().optional() }),
  answer: z.object({ accountId: z.string(), level: z.enum(['admin', 'member']) }),
});
const health = defineCall({ method: 'GET', path: 'health', answer: z.object({ ok: z.literal(true) }) });
const forget = defineCall({ method: 'DELETE', path: 'notes/:noteId', status: 204 });

describe('callApi', () => {
  it("takes the method and path from the contract entry, fills and encodes the parameters, sends body and query, and the fake finds the handler by the call's key", async () => {
    const api = installFakeApi({
      [callKey(member)]: (request) => ({
        status: 200,
        body: { accountId: request.params.accountId, level: (request.body as { level: 'admin' }).level },
      }),
    });
    const answer = await callApi(member, {
      params: { groupId: 'g 1', accountId: '张伟' },
      body: { level: 'admin' },
      query: { reason: 'promotion' },
    });
    expect(answer).toEqual({ accountId: '张伟', level: 'admin' });
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({
      method: 'PATCH',
      path: 'groups/g%201/members/%E5%BC%A0%E4%BC%9F',
      search: '?reason=promotion',
      body: { level: 'admin' },
      params: { groupId: 'g 1', accountId: '张伟' },
    });
  });

  it('refuses, in tests and development, an answer that does not match the contract, naming the call and the field', async () => {
    installFakeApi({ 'GET health': () => ({ status: 200, body: { ok: 'yes' } }) });
    const failure = await callApi(health, {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AnswerMismatchError);
    expect((failure as Error).message).toMatch(/^GET health: the answer does not match the contract: ok: /);
  });

  it('answers nothing for a 204 and passes refusals on as ApiError', async () => {
    installFakeApi({
      [callKey(forget)]: (request) => (request.params.noteId === 'n1' ? { status: 204 } : errorAnswer(404, 'NotFound')),
    });
    await expect(callApi(forget, { params: { noteId: 'n1' } })).resolves.toBeUndefined();
    const failure = await callApi(forget, { params: { noteId: 'n2' } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe('NotFound');
  });
});
