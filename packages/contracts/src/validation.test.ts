import { describe, expect, it } from 'vitest';
import { checkPassword, checkUsername, normalizeUsername } from './validation.js';

describe('checkUsername (spec 000 §5: trimmed; letters, digits, dash, underscore)', () => {
  it.each(['doctor', 'Dr_Li-2', '  senior  ', 'a', '0123', '_-_'])('accepts %j', (u) => {
    expect(checkUsername(u)).toBeNull();
  });
  it.each([
    ['', 'required'],
    ['   ', 'required'],
    ['li ming', 'invalidUsername'],
    ['li.ming', 'invalidUsername'],
    ['li@x', 'invalidUsername'],
    ['李明', 'invalidUsername'],
    ['a'.repeat(65), 'usernameTooLong'],
  ])('refuses %j as %s', (u, problem) => {
    expect(checkUsername(u)).toBe(problem);
  });
  it('trims before checking', () => {
    expect(normalizeUsername('  doctor\t')).toBe('doctor');
  });
});

describe('checkPassword, ordinary policy: 6–32 chars, two kinds of digit/letter/special', () => {
  it.each(['abc123', 'abcde!', '12345!', 'Ab1!Ab1!', 'a1'.repeat(16)])('accepts %j', (p) => {
    expect(checkPassword(p, false)).toBeNull();
  });
  it.each([
    ['', 'required'],
    ['abcdef', 'passwordTooSimple'],
    ['123456', 'passwordTooSimple'],
    ['!!!!!!', 'passwordTooSimple'],
    ['ABCDEFG', 'passwordTooSimple'],
    ['ab1', 'passwordTooShort'],
    ['ab12!', 'passwordTooShort'],
    ['a1'.repeat(16) + 'x', 'passwordTooLong'],
    ['abc 123', 'passwordTooSimple'],
  ])('refuses %j as %s', (p, problem) => {
    expect(checkPassword(p, false)).toBe(problem);
  });
});

describe('checkPassword, strong policy: 8–32 chars with upper, lower, digit and special', () => {
  it.each(['Yyp@2026', 'aB3$aB3$', 'Zz9!' + 'x'.repeat(28)])('accepts %j', (p) => {
    expect(checkPassword(p, true)).toBeNull();
  });
  it.each([
    ['Yy@2026', 'passwordTooShort'],
    ['yyp@2026', 'passwordTooSimple'],
    ['YYP@2026', 'passwordTooSimple'],
    ['Yyp@abcd', 'passwordTooSimple'],
    ['Yyp12026', 'passwordTooSimple'],
    ['abc123', 'passwordTooShort'],
    ['Zz9!' + 'x'.repeat(29), 'passwordTooLong'],
  ])('refuses %j as %s', (p, problem) => {
    expect(checkPassword(p, true)).toBe(problem);
  });
  it('a password fine under the ordinary policy can fail the strong one', () => {
    expect(checkPassword('abc123', false)).toBeNull();
    expect(checkPassword('abc12345', true)).toBe('passwordTooSimple');
  });
});
