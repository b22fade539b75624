import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accountCalls } from './account-calls.js';
import { adminCalls } from './admin-calls.js';
import { callKey, callPath, type Call } from './call.js';
import { aiCalls, blobCalls, healthCalls, notificationCalls, policyCalls, signatureCalls } from './platform-calls.js';
import { uploadKinds } from './policies.js';
import { reportCalls } from './report-calls.js';
import { ACCOUNT_ACTIONS } from './tenancy.js';
import { viewingCalls } from './viewing-calls.js';

const sets = {
  accountCalls,
  adminCalls,
  healthCalls,
  notificationCalls,
  signatureCalls,
  policyCalls,
  blobCalls,
  aiCalls,
  viewingCalls,
} satisfies Record<string, Record<string, Call>>;
const calls: Call[] = Object.values(sets).flatMap((set) => Object.values<Call>(set));
const paramNames = (call: Call) => [...call.path.matchAll(/:([A-Za-z0-9]+)/g)].map((m) => m[1]!);

/** The calls answered with bytes (a file, DICOM JSON, multipart frames), not a JSON schema. */
const raw = [
  blobCalls.download,
  viewingCalls.studyMetadata,
  viewingCalls.seriesMetadata,
  viewingCalls.frames,
  viewingCalls.bulkData,
];

describe('the account, admin, platform and viewing calls', () => {
  it('name every call once, also beside the report calls (which share reports/:reportId/images)', () => {
    const keys = [...calls, ...Object.values<Call>(reportCalls)].map(callKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(calls.map((c) => [callKey(c), c] as const))('%s: params schema has exactly its path names', (_k, call) => {
    const shape = call.params instanceof z.ZodObject ? Object.keys(call.params.shape) : [];
    expect(shape.sort()).toEqual(paramNames(call).sort());
  });

  it('leave the answer out only for a 204 or a call answered with bytes', () => {
    const without = calls.filter((c) => c.answer === undefined);
    expect(without.filter((c) => c.status !== 204)).toEqual(raw);
  });

  it('give one upload-policy call per upload kind, at policies/<kind>', () => {
    for (const kind of uploadKinds) expect(callKey(policyCalls[kind])).toBe(`GET policies/${kind}`);
  });

  it('take only the account actions the admin route knows', () => {
    const action = adminCalls.accountAction;
    for (const a of ACCOUNT_ACTIONS) {
      expect(callPath(action, { accountId: 'a 1', action: a })).toBe(`accounts/a%201/actions/${a}`);
    }
    expect(action.params?.safeParse({ accountId: 'x', action: 'delete' }).success).toBe(false);
  });

  it('answer register and a captured key image with 201, as the server always did', () => {
    expect([accountCalls.register.status, viewingCalls.keyImage.status]).toEqual([201, 201]);
    expect(accountCalls.login.status).toBeUndefined();
  });
});
