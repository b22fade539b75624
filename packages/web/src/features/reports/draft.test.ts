import { EMPTY_REPORT_CONTENT, type ReportContent } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { edit, initialDraft, isDirty, keepMine, receiveServer, sameContent, savedAs, takeTheirs } from './draft';

const content = (findings: string, conclusion = ''): ReportContent => ({
  ...EMPTY_REPORT_CONTENT,
  findings,
  conclusion,
});

describe('the draft against the server', () => {
  it('is clean when opened and dirty once typed into', () => {
    const state = initialDraft(content('a'), 3);
    expect(isDirty(state)).toBe(false);
    expect(isDirty(edit(state, { findings: 'ab' }))).toBe(true);
    expect(isDirty(edit(state, { findings: 'a' }))).toBe(false);
    expect(isDirty(edit(state, { positive: true }))).toBe(true);
  });

  it('compares extension values whatever order their keys come in', () => {
    const a = { ...content('x'), extensions: { size: 5, site: 'RUL' } };
    const b = { ...content('x'), extensions: { site: 'RUL', size: 5 } };
    expect(sameContent(a, b)).toBe(true);
    expect(sameContent(a, { ...b, extensions: { site: 'RUL' } })).toBe(false);
  });

  it('moves only the version when the server sends the same text (a lock, a state change)', () => {
    const typed = edit(initialDraft(content('a'), 3), { findings: 'ab' });
    const next = receiveServer(typed, content('a'), 4);
    expect(next).toEqual({ ...typed, baseVersion: 4 });
  });

  it('ignores a report older than the text on screen (a refresh that crossed a save)', () => {
    const saved = savedAs(initialDraft(content('a'), 3), content('ab'), 4);
    expect(receiveServer(saved, content('a'), 3)).toBe(saved);
  });

  it('takes the server text when nothing was typed', () => {
    expect(receiveServer(initialDraft(content('a'), 3), content('b'), 5)).toEqual(initialDraft(content('b'), 5));
  });

  it('keeps typed text on its old version when the server text changed, so the save meets the conflict', () => {
    const typed = edit(initialDraft(content('a'), 3), { findings: 'mine' });
    expect(receiveServer(typed, content('theirs'), 5)).toBe(typed);
  });

  it('after a save, text typed while it ran stays dirty on the new version', () => {
    const typed = edit(initialDraft(content('a'), 3), { findings: 'ab' });
    const sent = typed.draft;
    const later = edit(typed, { findings: 'abc' });
    const saved = savedAs(later, sent, 4);
    expect(saved.baseVersion).toBe(4);
    expect(saved.draft.findings).toBe('abc');
    expect(isDirty(saved)).toBe(true);
    expect(isDirty(savedAs(typed, sent, 4))).toBe(false);
  });

  it('resolves a conflict either way without losing the screen text unless asked', () => {
    const typed = edit(initialDraft(content('a'), 3), { findings: 'mine' });
    const mine = keepMine(typed, content('theirs'), 7);
    expect(mine).toEqual({ base: content('theirs'), baseVersion: 7, draft: content('mine') });
    expect(isDirty(mine)).toBe(true);
    expect(takeTheirs(content('theirs'), 7)).toEqual(initialDraft(content('theirs'), 7));
  });
});
