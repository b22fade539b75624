import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';

/** A copy shared with a target organization, and whether the account is a member of a consultation sharing it. */
export interface SharedCopy {
  copyId: string;
  bucketId: string;
  member: boolean;
}

/**
 * The copies the open consultations share with `bucketIds` as their target (consultation_exams'
 * shared_exam_id, null once unshared), each with whether `accountId` is a member (expert, joiner)
 * of one of the consultations sharing it. Only copies still of source 'consultation': one a remote
 * read took over ('remote'), or the target's own exam of the same study, is not the consultation's.
 */
export async function sharedCopiesIn(db: Db, bucketIds: readonly string[], accountId: string): Promise<SharedCopy[]> {
  if (bucketIds.length === 0) return [];
  const result = await db.execute(sql`
    select ce.shared_exam_id as "copyId", c.target_bucket_id as "bucketId",
      bool_or(exists (select 1 from consultation_members m
        where m.consultation_id = c.id and m.account_id = ${accountId})) as "member"
    from consultations c
    join consultation_exams ce on ce.consultation_id = c.id
    join exams e on e.id = ce.shared_exam_id and e.source = 'consultation'
    where c.target_bucket_id = any(${textArrayLiteral(bucketIds)}::text[]) and ce.shared_exam_id is not null
    group by ce.shared_exam_id, c.target_bucket_id`);
  const rows = (result as unknown as { rows: { copyId: string; bucketId: string; member: unknown }[] }).rows;
  return rows.map((r) => ({ ...r, member: r.member === true || r.member === 't' || r.member === 'true' }));
}
