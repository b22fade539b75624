import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { scopeColumns } from '../../platform/access.js';
import type { Db } from '../../platform/db.js';
import { preparedRows as prepared } from '../../platform/pglite-prepared.js';

/**
 * The frame path's look-ups (issue 20 item 16): a viewer asks for hundreds of frames a second,
 * and drizzle's query building and PGlite's parse-and-plan of every text cost more than the
 * queries. These are constant texts run as named prepared statements (per connection on
 * PostgreSQL, once per database on PGlite), one round trip per frame.
 */

/** A stored instance file: its blob and its size (the frame cache's key with it). */
export interface StoredFile {
  blobKey: string;
  size: number;
}

/**
 * The live instance a WADO-RS frame URL names, in the given organizations: its series and study
 * UIDs must match, and its exam must not be deleted. Several organizations may hold the same
 * SOP instance: the first by organization id answers, as any one of them is the caller's to see.
 * $5 names the exams of those organizations hidden from the caller (consultation copies it takes no
 * part in), most often none.
 */
const INSTANCE_FILE = `select i.blob_key as "blobKey", i.size as "size", e.id as "examId",
    e.bucket_id as "bucketId", e.source as "source"
  from instances i
  join series s on s.id = i.series_id
  join exams e on e.id = i.exam_id
  where i.bucket_id = any($1::text[]) and i.sop_instance_uid = $2 and s.series_uid = $3
    and e.store_uid = $4 and e.deleted_time is null and not (e.id = any($5::text[]))
  order by i.bucket_id
  limit 1`;

export async function instanceFile(
  db: Db,
  bucketIds: string[],
  studyUid: string,
  seriesUid: string,
  sopUid: string,
  hidden: readonly string[] = [],
): Promise<(StoredFile & { examId: string; bucketId: string; source: string }) | undefined> {
  if (bucketIds.length === 0) return undefined;
  const [row] = await prepared<StoredFile & { examId: string; bucketId: string; source: string }>(
    db,
    'yyp_frame_instance_file',
    INSTANCE_FILE,
    [bucketIds, sopUid, seriesUid, studyUid, [...hidden]],
  );
  return row;
}

/**
 * The file of one instance of a viewer path's exam: the exam live, in its organization, with its
 * study. Parameters from $`first`: exam id, organization, study, SOP instance, series UIDs.
 */
const examInstance = (first: number) => {
  const p = (i: number) => `$${first + i}`;
  return `select i.blob_key as "blobKey", i.size as "size"
    from exams e
    join instances i on i.exam_id = e.id and i.bucket_id = e.bucket_id
    join series s on s.id = i.series_id
    where e.id = ${p(0)} and e.bucket_id = ${p(1)} and e.store_uid = ${p(2)} and e.deleted_time is null
      and i.sop_instance_uid = ${p(3)} and s.series_uid = ${p(4)}
    limit 1`;
};

let viewerStatement: string | undefined;

/**
 * One round trip for a viewer path's frame: the path's account (disabled or not, and its scope,
 * as authentication reads it: platform/access.ts scopeColumns) and the instance's file.
 */
function viewerInstanceStatement(): string {
  if (viewerStatement) return viewerStatement;
  const cols = scopeColumns(sql.raw('$1'));
  const { sql: text, params } = new PgDialect().sqlToQuery(
    sql`select a.disabled as "disabled", ${cols.groups} as "groups", ${cols.members} as "members",
      ${cols.roles} as "roles", f."blobKey", f."size"
      from accounts a
      left join lateral (${sql.raw(examInstance(2))}) f on true
      where a.id = $1`,
  );
  if (params.length > 0) throw new Error('the viewer frame statement must be constant');
  return (viewerStatement = text);
}

/** What a viewer path's frame look-up found: the account (when it exists) and the file (when live). */
export interface ViewerFrameRow {
  disabled: number;
  groups: unknown;
  members: unknown;
  roles: unknown;
  blobKey: string | null;
  size: number | null;
}

export interface ExamInstance {
  examId: string;
  bucketId: string;
  studyUid: string;
  seriesUid: string;
  sopUid: string;
}

/** The parameters of examInstance(first), in the order it numbers them from `first` on. */
const examInstanceParams = (x: ExamInstance) => [x.examId, x.bucketId, x.studyUid, x.sopUid, x.seriesUid];

/** A viewer path's account and the instance file, or undefined when the account does not exist. */
export async function viewerFrameFile(db: Db, accountId: string, x: ExamInstance): Promise<ViewerFrameRow | undefined> {
  const [row] = await prepared<ViewerFrameRow>(db, 'yyp_frame_viewer_file', viewerInstanceStatement(), [
    accountId,
    ...examInstanceParams(x),
  ]);
  return row;
}

/** The instance file of a share path's exam (no account to check). */
export async function examInstanceFile(db: Db, x: ExamInstance): Promise<StoredFile | undefined> {
  const [row] = await prepared<StoredFile>(db, 'yyp_frame_exam_file', examInstance(1), examInstanceParams(x));
  return row;
}
