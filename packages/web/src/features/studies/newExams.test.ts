import { describe, expect, it } from 'vitest';
import { newExamsSince } from './newExams';

const e = (id: string, created: string) => ({ id, created });

describe('newExamsSince', () => {
  it('remembers the first answer without toasting it', () => {
    const { watch, fresh } = newExamsSince(undefined, [e('b', '2026-11-24T02:00:00Z'), e('a', '2026-11-24T01:00:00Z')]);
    expect(fresh).toEqual([]);
    expect(watch.since).toBe('2026-11-24T02:00:00Z');
    expect([...watch.seen].sort()).toEqual(['a', 'b']);
  });
  it('answers only exams not seen before, and moves since to the newest', () => {
    const first = newExamsSince(undefined, [e('a', '2026-11-24T01:00:00Z')]).watch;
    const { watch, fresh } = newExamsSince(first, [e('c', '2026-11-24T03:00:00Z'), e('a', '2026-11-24T01:00:00Z')]);
    expect(fresh.map((x) => x.id)).toEqual(['c']);
    expect(watch.since).toBe('2026-11-24T03:00:00Z');
    // The same answer again (a remount) toasts nothing.
    expect(newExamsSince(watch, [e('c', '2026-11-24T03:00:00Z')]).fresh).toEqual([]);
  });
  it('keeps since when an answer is empty', () => {
    const first = newExamsSince(undefined, []).watch;
    expect(first.since).toBeUndefined();
    const later = newExamsSince(first, [e('x', '2026-11-24T05:00:00Z')]);
    expect(later.fresh.map((x) => x.id)).toEqual(['x']);
  });
});
