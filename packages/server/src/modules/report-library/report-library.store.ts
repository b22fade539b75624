import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import { escapeLike } from '../../db/like.js';
import { imageDescTemplates, reportTemplates, sampleGraphs } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** SQL of report templates, image description templates and sample graphs. */

/* ---------- report templates ---------- */

type TemplateInsert = typeof reportTemplates.$inferInsert;
export type TemplateChange = Partial<
  Pick<TemplateInsert, 'category' | 'title' | 'modality' | 'bodyPart' | 'findings' | 'conclusion'>
>;

/**
 * The organization's templates and the account's personal ones (organization first), by
 * category and title. A modality keeps that modality's templates and those for any modality.
 */
export function listTemplates(
  db: Db,
  filter: { bucketId: string; ownerId: string; modality?: string | undefined; q?: string | undefined },
) {
  const pattern = filter.q ? `%${escapeLike(filter.q)}%` : undefined;
  return db
    .select()
    .from(reportTemplates)
    .where(
      and(
        or(
          and(eq(reportTemplates.scope, 'bucket'), eq(reportTemplates.bucketId, filter.bucketId)),
          and(eq(reportTemplates.scope, 'personal'), eq(reportTemplates.ownerId, filter.ownerId)),
        ),
        filter.modality
          ? or(eq(reportTemplates.modality, filter.modality), eq(reportTemplates.modality, ''))
          : undefined,
        pattern ? or(ilike(reportTemplates.title, pattern), ilike(reportTemplates.category, pattern)) : undefined,
      ),
    )
    .orderBy(
      sql`case when ${reportTemplates.scope} = 'bucket' then 0 else 1 end`,
      asc(reportTemplates.category),
      asc(reportTemplates.title),
      asc(reportTemplates.id),
    );
}

export async function findTemplate(db: Db, id: string) {
  const [row] = await db.select().from(reportTemplates).where(eq(reportTemplates.id, id)).limit(1);
  return row;
}

export async function insertTemplate(db: Db, values: Omit<TemplateInsert, 'createdAt' | 'updatedAt'>, now: Date) {
  const [row] = await db
    .insert(reportTemplates)
    .values({ ...values, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function updateTemplate(db: Db, id: string, change: TemplateChange, now: Date) {
  const [row] = await db
    .update(reportTemplates)
    .set({ ...change, updatedAt: now })
    .where(eq(reportTemplates.id, id))
    .returning();
  return row;
}

export async function deleteTemplate(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(reportTemplates).where(eq(reportTemplates.id, id)).returning({ id: reportTemplates.id });
  return rows.length > 0;
}

/** Whether an organization has templates yet (the demo seed fills only empty ones). */
export async function hasBucketTemplates(db: Db, bucketId: string): Promise<boolean> {
  const rows = await db
    .select({ id: reportTemplates.id })
    .from(reportTemplates)
    .where(and(eq(reportTemplates.scope, 'bucket'), eq(reportTemplates.bucketId, bucketId)))
    .limit(1);
  return rows.length > 0;
}

/* ---------- image description templates ---------- */

type DescInsert = typeof imageDescTemplates.$inferInsert;
export type DescTemplateChange = Partial<Pick<DescInsert, 'title' | 'modality' | 'bodyPart' | 'content'>>;

export function listDescTemplates(db: Db, bucketId: string) {
  return db
    .select()
    .from(imageDescTemplates)
    .where(eq(imageDescTemplates.bucketId, bucketId))
    .orderBy(
      asc(imageDescTemplates.modality),
      asc(imageDescTemplates.bodyPart),
      asc(imageDescTemplates.title),
      asc(imageDescTemplates.id),
    );
}

/** Which organization owns an image description template. */
export async function ownerOfDescTemplate(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ bucketId: imageDescTemplates.bucketId })
    .from(imageDescTemplates)
    .where(eq(imageDescTemplates.id, id))
    .limit(1);
  return row?.bucketId;
}

export async function hasDescTemplates(db: Db, bucketId: string): Promise<boolean> {
  const rows = await db
    .select({ id: imageDescTemplates.id })
    .from(imageDescTemplates)
    .where(eq(imageDescTemplates.bucketId, bucketId))
    .limit(1);
  return rows.length > 0;
}

export async function insertDescTemplate(db: Db, values: Omit<DescInsert, 'createdAt' | 'updatedAt'>, now: Date) {
  const [row] = await db
    .insert(imageDescTemplates)
    .values({ ...values, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function updateDescTemplate(db: Db, bucketId: string, id: string, change: DescTemplateChange, now: Date) {
  const [row] = await db
    .update(imageDescTemplates)
    .set({ ...change, updatedAt: now })
    .where(and(eq(imageDescTemplates.id, id), eq(imageDescTemplates.bucketId, bucketId)))
    .returning();
  return row;
}

export async function deleteDescTemplate(db: Db, bucketId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(imageDescTemplates)
    .where(and(eq(imageDescTemplates.id, id), eq(imageDescTemplates.bucketId, bucketId)))
    .returning({ id: imageDescTemplates.id });
  return rows.length > 0;
}

/* ---------- sample graphs ---------- */

export function listSampleGraphs(db: Db, bucketId: string) {
  return db
    .select()
    .from(sampleGraphs)
    .where(eq(sampleGraphs.bucketId, bucketId))
    .orderBy(asc(sampleGraphs.position), asc(sampleGraphs.createdAt), asc(sampleGraphs.id));
}

/** Which organization owns a sample graph. */
export async function ownerOfSampleGraph(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ bucketId: sampleGraphs.bucketId })
    .from(sampleGraphs)
    .where(eq(sampleGraphs.id, id))
    .limit(1);
  return row?.bucketId;
}

/** Adds a sample graph after the organization's last one. */
export async function insertSampleGraph(
  db: Db,
  values: Omit<typeof sampleGraphs.$inferInsert, 'position' | 'createdAt'>,
  now: Date,
) {
  const [row] = await db
    .insert(sampleGraphs)
    .values({
      ...values,
      position: sql`(select coalesce(max(${sampleGraphs.position}) + 1, 0) from ${sampleGraphs} where ${sampleGraphs.bucketId} = ${values.bucketId})`,
      createdAt: now,
    })
    .returning();
  return row!;
}

export async function deleteSampleGraph(db: Db, bucketId: string, id: string) {
  const [row] = await db
    .delete(sampleGraphs)
    .where(and(eq(sampleGraphs.id, id), eq(sampleGraphs.bucketId, bucketId)))
    .returning();
  return row;
}
