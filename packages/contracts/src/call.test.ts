import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callKey, callPath, defineCall, matchCallPath } from './call.js';

describe('defineCall', () => {
  it('keeps the entry as written and frozen', () => {
    const answer = z.object({ id: z.string() });
    const call = defineCall({ method: 'POST', path: 'reports/:reportId/approve', answer });
    expect(call).toEqual({ method: 'POST', path: 'reports/:reportId/approve', answer });
    expect(Object.isFrozen(call)).toBe(true);
    expect(callKey(call)).toBe('POST reports/:reportId/approve');
  });

  it.each([
    ['a leading slash', '/reports/:id'],
    ['an empty segment', 'reports//x'],
    ['a parameter inside a segment', 'reports/x:id'],
    ['a query in the path', 'reports?x=1'],
    ['an empty path', ''],
  ])('refuses a path with %s', (_what, path) => {
    expect(() => defineCall({ method: 'GET', path })).toThrow(/malformed call path/);
  });

  it('refuses a repeated parameter and a GET with a body', () => {
    expect(() => defineCall({ method: 'GET', path: 'a/:id/b/:id' })).toThrow(/repeated parameter/);
    expect(() => defineCall({ method: 'GET', path: 'a', body: z.object({}) })).toThrow(/cannot take a body/);
  });
});

describe('callPath and matchCallPath', () => {
  const call = defineCall({ method: 'GET', path: 'groups/:groupId/members/:accountId' });

  it('fills each parameter, URL-encoded, and refuses a missing one', () => {
    expect(callPath(call, { groupId: 'g 1', accountId: '张/伟' })).toBe('groups/g%201/members/%E5%BC%A0%2F%E4%BC%9F');
    expect(() => callPath(call, { groupId: 'g1', accountId: '' })).toThrow(/no value for :accountId/);
  });

  it('matches what callPath builds, with the same parameters back, for any values', () => {
    const values = ['g1', '0', 'a b', '张伟', 'x/y', '%', "O'Brien", 'a?b#c'];
    for (const groupId of values) {
      for (const accountId of values) {
        expect(matchCallPath(call.path, callPath(call, { groupId, accountId }))).toEqual({ groupId, accountId });
      }
    }
  });

  it('matches nothing else', () => {
    expect(matchCallPath(call.path, 'groups/g1/members')).toBeNull();
    expect(matchCallPath(call.path, 'groups/g1/members/a/b')).toBeNull();
    expect(matchCallPath(call.path, 'groups//members/a')).toBeNull();
    expect(matchCallPath(call.path, 'group/g1/members/a')).toBeNull();
    expect(matchCallPath(call.path, 'groups/%E0%A4%A/members/a')).toBeNull();
    expect(matchCallPath('health', 'health')).toEqual({});
  });
});
