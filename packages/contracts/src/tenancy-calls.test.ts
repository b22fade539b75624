import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callKey, type Call } from './call.js';
import { groupCalls } from './group-calls.js';
import { organizationCalls } from './organization-calls.js';
import { quickSearchCalls } from './quick-search-calls.js';
import { roleCalls } from './role-calls.js';
import { assignRuleCalls, colorRuleCalls } from './rule-calls.js';
import { DICTIONARY_KINDS } from './tenancy.js';

const areas: Record<string, Record<string, Call>> = {
  organizationCalls,
  roleCalls,
  groupCalls,
  assignRuleCalls,
  colorRuleCalls,
  quickSearchCalls,
};
const all = Object.values(areas).flatMap((calls) => Object.values(calls));

describe.each(Object.entries(areas))('%s', (_name, calls) => {
  it('names each path parameter in its params schema, and no other', () => {
    for (const call of Object.values(calls)) {
      const names = call.path
        .split('/')
        .filter((s) => s.startsWith(':'))
        .map((s) => s.slice(1));
      const shape = call.params instanceof z.ZodObject ? Object.keys(call.params.shape) : [];
      expect(shape.sort(), callKey(call)).toEqual(names.sort());
    }
  });

  it('gives an answer schema to every call but those answered 204', () => {
    for (const call of Object.values(calls)) {
      expect(call.answer === undefined, callKey(call)).toBe(call.status === 204);
    }
  });
});

describe('the tenancy calls together', () => {
  it('name every call once', () => {
    const keys = all.map(callKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("keep the dictionary's `buckets/:bucketId/:kind` apart from the organization's other calls", () => {
    const literal = all.flatMap((c) => (/^buckets\/:bucketId\/[a-z]/.test(c.path) ? [c.path.split('/')[2]!] : []));
    expect(literal.length).toBeGreaterThan(0);
    for (const segment of literal) expect(DICTIONARY_KINDS as readonly string[]).not.toContain(segment);
    const params = organizationCalls.dictionary.params;
    expect(params?.safeParse({ bucketId: 'b1', kind: 'roles' }).success).toBe(false);
    for (const kind of DICTIONARY_KINDS) expect(params?.safeParse({ bucketId: 'b1', kind }).success).toBe(true);
  });

  it('answer a group rule added with 201 and a quick search created with 200, as the server always did', () => {
    expect([assignRuleCalls.add.status, colorRuleCalls.add.status]).toEqual([201, 201]);
    expect(quickSearchCalls.create.status).toBeUndefined();
    expect(callKey(colorRuleCalls.remove)).toBe('DELETE groups/:groupId/color-rules/:ruleId');
  });
});
