import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import { learnings, type LearningRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The learning videos in their order (sort order, then oldest first); published ones only unless `all`. */
export async function listLearnings(
  db: Db,
  options: { all: boolean; skip: number; limit: number },
): Promise<{ rows: LearningRow[]; count: number }> {
  const where: SQL | undefined = options.all ? undefined : eq(learnings.published, true);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(learnings)
      .where(where)
      .orderBy(asc(learnings.sortOrder), asc(learnings.createdAt), asc(learnings.id))
      .offset(options.skip)
      .limit(options.limit),
    db.select({ n: count() }).from(learnings).where(where),
  ]);
  return { rows, count: total?.n ?? 0 };
}

export async function findLearning(db: Db, id: string): Promise<LearningRow | undefined> {
  const [row] = await db.select().from(learnings).where(eq(learnings.id, id)).limit(1);
  return row;
}

/** A published one, for a visitor (or a signed URL of a visitor). */
export async function findPublishedLearning(db: Db, id: string): Promise<LearningRow | undefined> {
  const [row] = await db
    .select()
    .from(learnings)
    .where(and(eq(learnings.id, id), eq(learnings.published, true)))
    .limit(1);
  return row;
}

export async function insertLearning(db: Db, row: typeof learnings.$inferInsert): Promise<LearningRow> {
  const [inserted] = await db.insert(learnings).values(row).returning();
  return inserted!;
}

export async function updateLearning(
  db: Db,
  id: string,
  change: Partial<Pick<LearningRow, 'title' | 'description' | 'sortOrder' | 'published' | 'durationSeconds'>>,
  now: Date,
): Promise<LearningRow | undefined> {
  const [row] = await db
    .update(learnings)
    .set({ ...change, updatedAt: now })
    .where(eq(learnings.id, id))
    .returning();
  return row;
}

export async function deleteLearning(db: Db, id: string): Promise<LearningRow | undefined> {
  const [row] = await db.delete(learnings).where(eq(learnings.id, id)).returning();
  return row;
}
