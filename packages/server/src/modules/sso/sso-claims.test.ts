import { describe, expect, it } from 'vitest';
import { claimValue, usernameFromClaim } from './sso-claims.js';

describe('claim mapping of a single-sign-on identity', () => {
  it('reads a claim by name, dotted names inside objects, strings and numbers only', () => {
    const claims = { sub: 's', name: ' 王爱丽 ', staff: { id: 42 }, 'x.y': 'flat', empty: ' ', list: ['a'] };
    expect(claimValue(claims, 'name')).toBe('王爱丽');
    expect(claimValue(claims, 'staff.id')).toBe('42');
    expect(claimValue(claims, 'x.y')).toBe('flat');
    expect(claimValue(claims, 'empty')).toBeNull();
    expect(claimValue(claims, 'list')).toBeNull();
    expect(claimValue(claims, 'missing')).toBeNull();
    expect(claimValue(claims, '')).toBeNull();
  });

  it('makes a username yyp accepts, or none', () => {
    expect(usernameFromClaim('alice.wang@a.example')).toBe('alice_wang');
    expect(usernameFromClaim('li na')).toBe('li_na');
    expect(usernameFromClaim('dr-zhao_1')).toBe('dr-zhao_1');
    expect(usernameFromClaim('王医生')).toBeNull();
    expect(usernameFromClaim(null)).toBeNull();
    expect(usernameFromClaim('a'.repeat(100))!.length).toBeLessThanOrEqual(60);
  });
});
