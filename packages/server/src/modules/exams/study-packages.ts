import type { AccountRow, ExamRow } from '../../db/schema.js';
import { callerScope, findBucketFacts } from '../../platform/access.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { decide, type BucketFacts } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { refuseMaskedFiles } from './files-privacy.js';
import * as store from './exams.store.js';

const ROUTE = 'POST exams/study-packages';

/**
 * The exams of a multi-study export, each authorized as GET exams/{id}/study-package authorizes
 * one: a live exam the caller sees (exam_get; a consultation's copy only its participants, `sees`)
 * in an organization where it holds study_package, and not seen masked (refuseMaskedFiles). The
 * first refusal answers for all, audited as the route's own refusals are (permission.denied):
 * 404 for an exam the caller cannot see, 403 for a missing action or a masked exam.
 */
export async function authorizeStudyPackages(
  db: Db,
  account: AccountRow,
  examIds: string[],
  ctx: AuditContext,
  sees: (exam: ExamRow) => Promise<boolean>,
): Promise<ExamRow[]> {
  const { access } = await callerScope(db, account);
  const buckets = new Map<string, BucketFacts | undefined>();
  const out: ExamRow[] = [];
  for (const id of [...new Set(examIds)]) {
    const exam = await store.findExam(db, id);
    if (!exam || exam.deletedTime) throw errors.notFound('Exam');
    if (!buckets.has(exam.bucketId)) buckets.set(exam.bucketId, await findBucketFacts(db, exam.bucketId));
    const bucket = buckets.get(exam.bucketId);
    for (const action of ['exam_get', 'study_package'] as const) {
      const decision = decide(access, action, bucket);
      if (decision === 'allow') continue;
      await writeAudit(db, ctx, {
        action: 'permission.denied',
        outcome: 'denied',
        category: 'security',
        actorId: account.id,
        actorUsername: account.username,
        ...(decision === 'forbidden' ? { bucketId: exam.bucketId } : {}),
        targetType: 'exam',
        targetId: exam.id,
        details: { action, route: ROUTE, decision },
      });
      throw decision === 'notFound' ? errors.notFound('Exam') : errors.forbidden(action);
    }
    if (!(await sees(exam))) throw errors.notFound('Exam');
    await refuseMaskedFiles(db, ctx, { account, access, bucket: bucket! }, exam, ROUTE);
    out.push(exam);
  }
  return out;
}
