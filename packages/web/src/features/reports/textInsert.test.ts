import { describe, expect, it } from 'vitest';
import { insertAtCursor, selectedText } from './textInsert';

describe('insertAtCursor', () => {
  it('puts the text at the caret and the caret right after it', () => {
    expect(insertAtCursor('肺纹理清晰。', '双肺', { start: 0, end: 0 })).toEqual({
      value: '双肺肺纹理清晰。',
      cursor: 2,
    });
    expect(insertAtCursor('abc', 'X', { start: 1, end: 1 })).toEqual({ value: 'aXbc', cursor: 2 });
  });

  it('replaces a selection, whichever way it was made', () => {
    expect(insertAtCursor('one two three', '2', { start: 4, end: 7 })).toEqual({ value: 'one 2 three', cursor: 5 });
    expect(insertAtCursor('one two three', '2', { start: 7, end: 4 })).toEqual({ value: 'one 2 three', cursor: 5 });
  });

  it('appends when the caret is unknown, and clamps offsets past the end', () => {
    expect(insertAtCursor('abc', 'd', null)).toEqual({ value: 'abcd', cursor: 4 });
    expect(insertAtCursor('abc', 'd', { start: 10, end: 12 })).toEqual({ value: 'abcd', cursor: 4 });
    expect(insertAtCursor('', '心影不大。', { start: 0, end: 0 })).toEqual({ value: '心影不大。', cursor: 5 });
  });
});

describe('selectedText', () => {
  it('answers the trimmed selection, or nothing', () => {
    expect(selectedText('a  nodule  b', { start: 1, end: 10 })).toBe('nodule');
    expect(selectedText('abc', { start: 2, end: 2 })).toBe('');
    expect(selectedText('abc', null)).toBe('');
  });
});
