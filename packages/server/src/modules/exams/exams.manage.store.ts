import type { GroupAccessLevel, OrgAccessLevel } from '@yyp/contracts';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  accounts,
  assignRules,
  bucketDictionary,
  bucketMembers,
  buckets,
  coExams,
  examAttachments,
  exams,
  examTags,
  groupMembers,
  roleMappings,
  roles,
  series,
} from '../../db/schema.js';
import type { CallerAccess, Membership } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { anyText, textArrayLiteral } from '../../platform/sql.js';

/** SQL of the exam detail drawer: the exam's own fields, assignment, tags and co-written exams. */

export async function examFields(db: Db, examId: string) {
  const [row] = await db
    .select({
      id: exams.id,
      bucketId: exams.bucketId,
      deletedTime: exams.deletedTime,
      patientId: exams.patientId,
      patientPhone: exams.patientPhone,
      inpatientId: exams.inpatientId,
      outpatientId: exams.outpatientId,
      bedNum: exams.bedNum,
      physicalExamId: exams.physicalExamId,
      patientSource: exams.patientSource,
      clinicImpression: exams.clinicImpression,
      scanTech: exams.scanTech,
      physician: exams.physician,
      bodyPartCount: exams.bodyPartCount,
      weight: exams.weight,
      height: exams.height,
      institution: exams.institution,
      referringPhysician: exams.referringPhysician,
      source: exams.source,
      extensions: exams.extensions,
      aiResult: exams.aiResult,
    })
    .from(exams)
    .where(eq(exams.id, examId))
    .limit(1);
  return row;
}

export async function examSeries(db: Db, examId: string) {
  return db
    .select({
      seriesUid: series.seriesUid,
      modality: series.modality,
      seriesNumber: series.seriesNumber,
      description: series.description,
      bodyPart: series.bodyPart,
      instanceCount: series.instanceCount,
    })
    .from(series)
    .where(eq(series.examId, examId))
    .orderBy(asc(series.seriesNumber), asc(series.createdAt));
}

export async function attachmentCount(db: Db, examId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(examAttachments).where(eq(examAttachments.examId, examId));
  return Number(row?.n ?? 0);
}

export type ExamChange = Partial<typeof exams.$inferInsert>;

/** Writes the changed fields of a live exam; answers false when it is gone or deleted. */
export async function updateExam(db: Db, examId: string, change: ExamChange): Promise<boolean> {
  const rows = await db
    .update(exams)
    .set(change)
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)))
    .returning({ id: exams.id });
  return rows.length > 0;
}

/** Items of one organization dictionary kind by id (tags, extension configs). */
export async function dictionaryItems(db: Db, bucketId: string, kind: string, ids?: string[]) {
  return db
    .select({ id: bucketDictionary.id, name: bucketDictionary.name, data: bucketDictionary.data })
    .from(bucketDictionary)
    .where(
      and(
        eq(bucketDictionary.bucketId, bucketId),
        eq(bucketDictionary.kind, kind),
        ids ? inArray(bucketDictionary.id, ids) : undefined,
      ),
    );
}

export async function examTagList(db: Db, examId: string) {
  return db
    .select({ id: bucketDictionary.id, name: bucketDictionary.name, data: bucketDictionary.data })
    .from(examTags)
    .innerJoin(bucketDictionary, eq(bucketDictionary.id, examTags.tagId))
    .where(eq(examTags.examId, examId))
    .orderBy(asc(bucketDictionary.sort), asc(bucketDictionary.name));
}

export async function addExamTag(db: Db, examId: string, tagId: string, now: Date): Promise<void> {
  await db.insert(examTags).values({ examId, tagId, createdAt: now }).onConflictDoNothing();
}

export async function removeExamTag(db: Db, examId: string, tagId: string): Promise<boolean> {
  const rows = await db
    .delete(examTags)
    .where(and(eq(examTags.examId, examId), eq(examTags.tagId, tagId)))
    .returning({ tagId: examTags.tagId });
  return rows.length > 0;
}

export async function countExamTags(db: Db, examId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(examTags).where(eq(examTags.examId, examId));
  return Number(row?.n ?? 0);
}

/**
 * Accounts of these organizations with what authorization needs to compute their actions there:
 * membership level, role actions and group level (the same inputs effectiveActions reads).
 */
export async function membersWithAccess(db: Db, bucketIds: string[]) {
  if (bucketIds.length === 0) return [];
  const [memberRows, roleRows, groupRows] = await Promise.all([
    db
      .select({
        bucketId: bucketMembers.bucketId,
        accountId: bucketMembers.accountId,
        level: bucketMembers.accessLevel,
        username: accounts.username,
        name: accounts.name,
        groupId: buckets.groupId,
        isPrivate: buckets.isPrivate,
      })
      .from(bucketMembers)
      .innerJoin(accounts, eq(accounts.id, bucketMembers.accountId))
      .innerJoin(buckets, eq(buckets.id, bucketMembers.bucketId))
      .where(and(inArray(bucketMembers.bucketId, bucketIds), eq(accounts.disabled, 0))),
    db
      .select({ bucketId: roles.bucketId, accountId: roleMappings.accountId, actions: roles.actions })
      .from(roleMappings)
      .innerJoin(roles, eq(roles.id, roleMappings.roleId))
      .where(inArray(roles.bucketId, bucketIds)),
    db
      .select({ groupId: groupMembers.groupId, accountId: groupMembers.accountId, level: groupMembers.accessLevel })
      .from(groupMembers)
      .innerJoin(buckets, eq(buckets.groupId, groupMembers.groupId))
      .where(inArray(buckets.id, bucketIds)),
  ]);
  const people = new Map<string, { username: string; name: string; access: CallerAccess }>();
  const groupLevels = new Map<string, Map<string, GroupAccessLevel>>();
  for (const g of groupRows) {
    const m = groupLevels.get(g.accountId) ?? new Map<string, GroupAccessLevel>();
    m.set(g.groupId, g.level as GroupAccessLevel);
    groupLevels.set(g.accountId, m);
  }
  for (const m of memberRows) {
    const person = people.get(m.accountId) ?? {
      username: m.username,
      name: m.name,
      access: {
        accountId: m.accountId,
        groupLevels: groupLevels.get(m.accountId) ?? new Map<string, GroupAccessLevel>(),
        memberships: new Map<string, Membership>(),
      },
    };
    const actions = new Set<string>();
    for (const r of roleRows) {
      if (r.accountId === m.accountId && r.bucketId === m.bucketId) for (const a of r.actions) actions.add(a);
    }
    (person.access.memberships as Map<string, Membership>).set(m.bucketId, {
      orgLevel: m.level as OrgAccessLevel,
      roleActions: actions,
    });
    people.set(m.accountId, person);
  }
  const facts = new Map(
    memberRows.map((m) => [m.bucketId, { id: m.bucketId, groupId: m.groupId, isPrivate: m.isPrivate }]),
  );
  return [...people.entries()].map(([id, p]) => ({ id, ...p, facts }));
}

export async function setAssignee(db: Db, examId: string, assigneeId: string | null, now: Date): Promise<boolean> {
  const rows = await db
    .update(exams)
    .set({ assigneeId, assignedAt: assigneeId ? now : null, updated: now })
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)))
    .returning({ id: exams.id });
  return rows.length > 0;
}

/**
 * Sets each exam's chosen assignee only if it has none (automatic assignment never overrides a
 * person's choice), in one statement; answers the exams it assigned.
 */
export async function assignManyIfUnassigned(
  db: Db,
  chosen: ReadonlyMap<string, string>,
  now: Date,
): Promise<string[]> {
  if (chosen.size === 0) return [];
  const rows = await db
    .update(exams)
    .set({
      assigneeId: sql`v.assignee`,
      assignedAt: now,
    })
    .from(
      sql`unnest(${textArrayLiteral([...chosen.keys()])}::text[], ${textArrayLiteral([...chosen.values()])}::text[]) as v(id, assignee)`,
    )
    .where(and(sql`${exams.id} = v.id`, isNull(exams.assigneeId), isNull(exams.deletedTime)))
    .returning({ id: exams.id });
  return rows.map((r) => r.id);
}

export async function accountName(db: Db, accountId: string): Promise<string | null> {
  const [row] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row?.name ?? null;
}

/** Report statuses that still need the assignee's work (workload for automatic assignment). */
const OPEN_STATUSES = ['none', 'locked', 'partial', 'hold', 'cancelled'];

/** Open exams assigned to each of these accounts. */
export async function openAssignments(db: Db, accountIds: string[]): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({ id: exams.assigneeId, n: count() })
    .from(exams)
    .where(
      and(inArray(exams.assigneeId, accountIds), inArray(exams.reportStatus, OPEN_STATUSES), isNull(exams.deletedTime)),
    )
    .groupBy(exams.assigneeId);
  return new Map(rows.map((r) => [r.id!, Number(r.n)]));
}

/** The exams automatic assignment looks at, with their group (one query for a batch). */
export async function examsForAssign(db: Db, examIds: readonly string[]) {
  if (examIds.length === 0) return [];
  return db
    .select({
      id: exams.id,
      bucketId: exams.bucketId,
      groupId: buckets.groupId,
      modality: exams.modality,
      assigneeId: exams.assigneeId,
      deletedTime: exams.deletedTime,
    })
    .from(exams)
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .where(anyText(exams.id, examIds));
}

/** The assign rules of each group, in the order they are tried (priority, then age). */
export async function assignRulesOfGroups(db: Db, groupIds: readonly string[]) {
  const out = new Map<string, (typeof assignRules.$inferSelect)[]>();
  if (groupIds.length === 0) return out;
  const rows = await db
    .select()
    .from(assignRules)
    .where(anyText(assignRules.groupId, groupIds))
    .orderBy(asc(assignRules.priority), asc(assignRules.createdAt));
  for (const r of rows) out.set(r.groupId, [...(out.get(r.groupId) ?? []), r]);
  return out;
}

/* ---------- co-written exams ---------- */

/** The primary exam of the co-written set this exam is in (itself when it is in none or leads one). */
export async function primaryOf(db: Db, examId: string): Promise<string> {
  const [row] = await db
    .select({ primary: coExams.primaryExamId })
    .from(coExams)
    .where(eq(coExams.examId, examId))
    .limit(1);
  return row?.primary ?? examId;
}

/** The co-written exams of a primary (not the primary itself), in the order they were added. */
export async function coExamIds(db: Db, primaryExamId: string): Promise<string[]> {
  const rows = await db
    .select({ id: coExams.examId })
    .from(coExams)
    .where(eq(coExams.primaryExamId, primaryExamId))
    .orderBy(asc(coExams.createdAt), asc(coExams.examId));
  return rows.map((r) => r.id);
}

/** Of these exams, those already in a co-written set (as a member, or leading one). */
export async function alreadyCombined(db: Db, examIds: string[]): Promise<string[]> {
  if (examIds.length === 0) return [];
  const rows = await db
    .select({ a: coExams.examId, b: coExams.primaryExamId })
    .from(coExams)
    .where(sql`${inArray(coExams.examId, examIds)} or ${inArray(coExams.primaryExamId, examIds)}`);
  const wanted = new Set(examIds);
  return [...new Set(rows.flatMap((r) => [r.a, r.b]).filter((id) => wanted.has(id)))];
}

/** Live exams among these ids in one bucket, with their patient ids. */
export async function liveExamsIn(db: Db, bucketId: string, examIds: string[]) {
  if (examIds.length === 0) return [];
  return db
    .select({ id: exams.id, patientId: exams.patientId })
    .from(exams)
    .where(and(eq(exams.bucketId, bucketId), inArray(exams.id, examIds), isNull(exams.deletedTime)));
}

export async function insertCoExams(db: Db, primaryExamId: string, examIds: string[], by: string, now: Date) {
  await db.insert(coExams).values(examIds.map((examId) => ({ primaryExamId, examId, createdBy: by, createdAt: now })));
}
