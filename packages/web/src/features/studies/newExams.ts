/** What the new-exam poll has seen: the newest creation time (the next poll's `since`) and the ids. */
export interface NewExamWatch {
  since: string | undefined;
  seen: ReadonlySet<string>;
}

/**
 * Folds one poll answer into the watch. The first answer is what was there when the user came: it
 * is only remembered. Later, the exams not seen before are fresh (newest first, as answered).
 */
export function newExamsSince<T extends { id: string; created: string }>(
  watch: NewExamWatch | undefined,
  exams: readonly T[],
): { watch: NewExamWatch; fresh: T[] } {
  const newest = exams.reduce<string | undefined>(
    (max, e) => (!max || e.created > max ? e.created : max),
    watch?.since,
  );
  const seen = new Set([...(watch?.seen ?? []), ...exams.map((e) => e.id)]);
  const fresh = watch ? exams.filter((e) => !watch.seen.has(e.id)) : [];
  return { watch: { since: newest, seen }, fresh };
}
