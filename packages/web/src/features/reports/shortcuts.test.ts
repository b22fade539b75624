import { describe, expect, it } from 'vitest';
import { shortcutCommand, type KeyLike } from './shortcuts';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('shortcutCommand', () => {
  it('maps the editor shortcuts', () => {
    expect(shortcutCommand(key('s', { ctrlKey: true }))).toBe('save');
    expect(shortcutCommand(key('S', { ctrlKey: true }))).toBe('save');
    expect(shortcutCommand(key('s', { metaKey: true }))).toBe('save');
    expect(shortcutCommand(key('Enter', { ctrlKey: true }))).toBe('submit');
    expect(shortcutCommand(key('Enter', { ctrlKey: true, shiftKey: true }))).toBe('approve');
    expect(shortcutCommand(key('n', { altKey: true }))).toBe('next');
    expect(shortcutCommand(key('˜', { altKey: true, code: 'KeyN' }))).toBe('next');
    expect(shortcutCommand(key('F1'))).toBe('keyImage');
  });

  it('leaves ordinary typing and other combinations alone', () => {
    expect(shortcutCommand(key('s'))).toBeNull();
    expect(shortcutCommand(key('Enter'))).toBeNull();
    expect(shortcutCommand(key('Enter', { shiftKey: true }))).toBeNull();
    expect(shortcutCommand(key('n'))).toBeNull();
    expect(shortcutCommand(key('n', { altKey: true, ctrlKey: true }))).toBeNull();
    expect(shortcutCommand(key('s', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(shortcutCommand(key('F1', { ctrlKey: true }))).toBeNull();
    expect(shortcutCommand(key('F2'))).toBeNull();
  });
});
