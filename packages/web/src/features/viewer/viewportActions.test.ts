import { describe, expect, it } from 'vitest';
import { keyCommand } from './viewportActions';

describe('keyCommand', () => {
  it('maps the reading keys to their commands', () => {
    expect(keyCommand('F1')).toEqual({ kind: 'keyImage' });
    expect(keyCommand('ArrowUp')).toEqual({ kind: 'scroll', delta: -1 });
    expect(keyCommand('ArrowLeft')).toEqual({ kind: 'scroll', delta: -1 });
    expect(keyCommand('ArrowDown')).toEqual({ kind: 'scroll', delta: 1 });
    expect(keyCommand('ArrowRight')).toEqual({ kind: 'scroll', delta: 1 });
    expect(keyCommand('PageUp')).toEqual({ kind: 'scroll', delta: -10 });
    expect(keyCommand('PageDown')).toEqual({ kind: 'scroll', delta: 10 });
    expect(keyCommand('Home')).toEqual({ kind: 'scroll', delta: -1e6 });
    expect(keyCommand('End')).toEqual({ kind: 'scroll', delta: 1e6 });
    expect(keyCommand(' ')).toEqual({ kind: 'cine' });
    expect(keyCommand('i')).toEqual({ kind: 'invert' });
    expect(keyCommand('h')).toEqual({ kind: 'flip', horizontal: true });
    expect(keyCommand('v')).toEqual({ kind: 'flip', horizontal: false });
    expect(keyCommand('[')).toEqual({ kind: 'rotate', delta: -90 });
    expect(keyCommand(']')).toEqual({ kind: 'rotate', delta: 90 });
    expect(keyCommand('0')).toEqual({ kind: 'reset' });
    expect(keyCommand('9')).toEqual({ kind: 'storedWindow' });
  });

  it('chooses window presets 1 to 6 and nothing for 7 and 8', () => {
    for (let n = 1; n <= 6; n++) expect(keyCommand(String(n))).toEqual({ kind: 'preset', index: n - 1 });
    expect(keyCommand('7')).toBeUndefined();
    expect(keyCommand('8')).toBeUndefined();
  });

  it('leaves other keys (tools, typing) alone', () => {
    for (const key of ['w', 'z', 'I', 'H', 'Enter', 'Escape', 'toString', 'constructor', '']) {
      expect(keyCommand(key)).toBeUndefined();
    }
  });
});
