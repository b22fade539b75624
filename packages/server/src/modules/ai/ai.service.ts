import type { GroupSettings } from '@yyp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { BucketFacts } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { JobQueue, JobRow } from '../../platform/jobs.js';
import type { Signer } from '../../platform/signed.js';
import { auditExam } from '../exams/index.js';
import { findGroup } from '../groups/index.js';
import { findBucket } from '../organizations/index.js';
import { claimAiTask, examBucket, findExamForAi, setAiStatus } from './ai.store.js';
import { isChestCt } from './chest-ct.js';

const AI_JOB = 'ai.task';
/** The study link and the callback link the AI service gets: it takes about 10 minutes (spec 000 §5). */
const LINK_TTL_S = 3 * 3600;
const REQUEST_TIMEOUT_MS = 15_000;

const serviceNotConfigured = () =>
  new AppError('ServiceNotConfigured', 'No AI service is configured for this group; a group admin sets its address');
const linkInvalid = () => new AppError('LinkInvalid', 'The link is invalid or has expired');

/**
 * The AI task (spec 001 §7 POST exams/{id}/ai/task): the study goes to the AI service the group
 * configured (settings.aiServiceUrl), through a job, and its status is kept on the exam: queued,
 * sent (the service accepted it), done or failed (from the service's callback, or after the last
 * attempt). Without a configured service the call says so; nothing is ever made up.
 */
export class AiService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly signer: Signer,
    private readonly jobs: JobQueue,
    private readonly log: FastifyBaseLogger,
  ) {
    jobs.register(AI_JOB, {
      run: (job) => this.send(job),
      onGiveUp: (job) => this.setStatus(String(job.payload.examId), 'failed'),
    });
  }

  private async serviceUrl(groupId: string): Promise<string | null> {
    const settings = ((await findGroup(this.db, groupId))?.settings ?? {}) as Partial<GroupSettings>;
    return settings.aiServiceUrl ? settings.aiServiceUrl : null;
  }

  /** POST exams/{id}/ai/task?bucketId: the route authorized exam_update in the exam's bucket. */
  async queue(
    account: AccountRow,
    bucket: BucketFacts,
    examId: string,
    input: { bucketId?: string | undefined; force?: boolean | undefined; origin: string },
    ctx: AuditContext,
  ) {
    if (input.bucketId && input.bucketId !== bucket.id) throw errors.notFound('Exam');
    const exam = await findExamForAi(this.db, examId);
    if (!exam || exam.deletedTime || exam.bucketId !== bucket.id) throw errors.notFound('Exam');
    if (!(await this.serviceUrl(bucket.groupId))) throw serviceNotConfigured();
    if (!input.force && !isChestCt(exam)) {
      throw new AppError(
        'NotChestCt',
        'The AI service reads chest CT; this exam is not one. Send it anyway with force',
        {
          modality: exam.modality,
          bodyPart: exam.bodyPart,
        },
      );
    }
    const jobId = await this.db.transaction(async (tx) => {
      const claimed = await claimAiTask(tx, examId, this.clock.now());
      if (!claimed) throw errors.conflict('The exam is already with the AI service');
      const id = await this.jobs.enqueue(tx, AI_JOB, { examId, origin: input.origin });
      await auditExam(
        tx,
        ctx,
        account,
        'exam.ai_task',
        { id: examId, bucketId: bucket.id },
        {
          patientId: exam.patientId,
          details: { jobId: id, forced: Boolean(input.force) },
        },
      );
      return id;
    });
    return { id: examId, aiStatus: 'queued', jobId };
  }

  private async setStatus(examId: string, aiStatus: string, aiResult?: Record<string, unknown>) {
    await setAiStatus(this.db, examId, aiStatus, aiResult, this.clock.now());
  }

  /** The job: posts the study's links to the AI service; a 2xx means it took the study. */
  private async send(job: JobRow): Promise<void> {
    const examId = String(job.payload.examId);
    const origin = String(job.payload.origin);
    const exam = await findExamForAi(this.db, examId);
    if (!exam || exam.deletedTime) return;
    const bucket = await findBucket(this.db, exam.bucketId);
    const url = bucket ? await this.serviceUrl(bucket.groupId) : null;
    if (!url) {
      await this.setStatus(examId, 'failed', { error: 'No AI service is configured for this group' });
      return;
    }
    const expires = new Date(this.clock.now().getTime() + LINK_TTL_S * 1000);
    const download = this.signer.sign('download', { e: examId, u: null }, expires);
    const callback = this.signer.sign('ai', { e: examId }, expires);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        examId,
        studyInstanceUid: exam.storeUid,
        modality: exam.modality,
        bodyPart: exam.bodyPart,
        studyDescription: exam.studyDesc,
        studyUrl: `${origin}/yyp/api/v1/studies/download?token=${encodeURIComponent(download.token)}`,
        callbackUrl: `${origin}/yyp/api/v1/ai/callback?token=${encodeURIComponent(callback.token)}`,
        expires: download.expires,
      }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`AI service answered ${res.status}`);
    await this.setStatus(examId, 'sent');
    this.log.info({ examId, job: job.id }, 'study sent to the AI service');
  }

  /** POST ai/callback?token: the AI service's result for the exam the signed token names. */
  async callback(
    token: string,
    body: { status: 'done' | 'failed'; summary?: string | undefined; findings?: Record<string, unknown>[] | undefined },
    ctx: AuditContext,
  ) {
    const payload = this.signer.verify('ai', token, this.clock.now());
    if (!payload || typeof payload.e !== 'string') throw linkInvalid();
    const exam = await examBucket(this.db, payload.e);
    if (!exam) throw linkInvalid();
    await this.setStatus(exam.id, body.status, {
      summary: body.summary ?? '',
      findings: body.findings ?? [],
      at: this.clock.now().toISOString(),
    });
    await writeAudit(this.db, ctx, {
      action: 'exam.ai_result',
      outcome: 'success',
      category: 'phi',
      bucketId: exam.bucketId,
      targetType: 'exam',
      targetId: exam.id,
      details: { status: body.status },
    });
    return { id: exam.id, aiStatus: body.status };
  }
}
