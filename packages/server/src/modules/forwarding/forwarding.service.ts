import type { FastifyBaseLogger } from 'fastify';
import type {
  DicomSend,
  DicomSendRequest,
  ForwardingRule,
  ForwardingRuleInput,
  forwardingRuleInputSchema,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { AccountRow, DicomSendRow, ForwardingRuleRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { JobQueue, JobRow } from '../../platform/jobs.js';
import { auditExam, refuseMaskedFiles, type FilesCaller } from '../exams/index.js';
import { SEND_ATTEMPTS, SendRunner } from './forwarding.send.js';
import * as store from './forwarding.store.js';

type RuleInput = z.output<typeof forwardingRuleInputSchema>;

/** A new study is forwarded once nothing more of it has arrived for this long (Orthanc's "stable age"). */
export const DEFAULT_STABLE_SECONDS = 60;

export const SEND_JOB = 'dicom.send';
export const FORWARD_JOB = 'dicom.forward';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function presentRule(r: ForwardingRuleRow, destinationAe: string): ForwardingRule {
  return {
    id: r.id,
    bucketId: r.bucketId,
    name: r.name,
    destinationId: r.destinationId,
    destinationAe,
    modality: r.modality,
    sourceAe: r.sourceAe,
    bodyPart: r.bodyPart,
    enabled: r.enabled,
    updated: r.updated.toISOString(),
  };
}

export function presentSend(s: DicomSendRow): DicomSend {
  return {
    id: s.id,
    examId: s.examId,
    destinationId: s.destinationId,
    destinationAe: s.destinationAe,
    seriesUids: s.seriesUids ?? null,
    trigger: s.trigger === 'rule' ? 'rule' : 'manual',
    ruleId: s.ruleId,
    status: (['queued', 'running', 'done', 'failed'] as const).find((x) => x === s.status) ?? 'queued',
    total: s.total,
    sent: s.sent,
    failed: s.failed,
    failedInstances: s.failedInstances,
    attempts: s.attempts,
    lastError: s.lastError,
    created: s.created.toISOString(),
    finished: iso(s.finished),
  };
}

/** Whether a rule takes a study: each of its filters is '' or found among the study's values (without case). */
export function ruleMatches(
  rule: Pick<ForwardingRuleRow, 'modality' | 'sourceAe' | 'bodyPart'>,
  study: { modalities: string[]; bodyParts: string[]; sourceAe: string },
): boolean {
  const within = (filter: string, values: string[]) =>
    filter === '' || values.some((v) => v.toUpperCase() === filter.toUpperCase());
  return (
    within(rule.modality, study.modalities) &&
    within(rule.bodyPart, study.bodyParts) &&
    (rule.sourceAe === '' || rule.sourceAe === study.sourceAe)
  );
}

/**
 * Sending studies to other DICOM nodes (issue 28): forwarding rules, sends by hand, and the jobs
 * that forward new studies and send. A destination is one of the organization's devices with a
 * host and a port; every send is audited as a disclosure of the exam.
 */
export class ForwardingService {
  readonly runner: SendRunner;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly jobs: JobQueue;
  private readonly log: FastifyBaseLogger;

  constructor(
    deps: { db: Db; blobs: BlobStore; clock: Clock; jobs: JobQueue; log: FastifyBaseLogger; dicomAet: string },
    private readonly stableSeconds = DEFAULT_STABLE_SECONDS,
  ) {
    ({ db: this.db, clock: this.clock, jobs: this.jobs, log: this.log } = deps);
    const { db, jobs } = deps;
    this.runner = new SendRunner(db, deps.blobs, deps.clock, deps.dicomAet, deps.log);
    jobs.register(SEND_JOB, { run: (job) => this.runner.run(job) });
    jobs.register(FORWARD_JOB, { run: (job) => this.forward(job) });
  }

  async listRules(bucketId: string): Promise<ForwardingRule[]> {
    return (await store.listRules(this.db, bucketId)).map((r) => presentRule(r.rule, r.destinationAe));
  }

  async createRule(actor: AccountRow, bucketId: string, input: RuleInput, ctx: AuditContext): Promise<ForwardingRule> {
    const destination = await this.destination(bucketId, input.destinationId);
    const row = await store.insertRule(this.db, bucketId, this.values(input), this.clock.now());
    await this.auditRule(actor, ctx, 'forwarding_rule.create', row);
    return presentRule(row, destination.aeTitle);
  }

  async updateRule(actor: AccountRow, bucketId: string, id: string, input: RuleInput, ctx: AuditContext) {
    const destination = await this.destination(bucketId, input.destinationId);
    const row = await store.updateRule(this.db, bucketId, id, this.values(input), this.clock.now());
    if (!row) throw errors.notFound('Forwarding rule');
    await this.auditRule(actor, ctx, 'forwarding_rule.update', row);
    return presentRule(row, destination.aeTitle);
  }

  async removeRule(actor: AccountRow, bucketId: string, id: string, ctx: AuditContext): Promise<void> {
    if (!(await store.deleteRule(this.db, bucketId, id))) throw errors.notFound('Forwarding rule');
    await writeAudit(this.db, ctx, {
      action: 'forwarding_rule.delete',
      category: 'operation',
      outcome: 'success',
      actorId: actor.id,
      actorUsername: actor.username,
      targetType: 'forwarding_rule',
      targetId: id,
      bucketId,
    });
  }

  /** Sends the study (or some series) to a device of its organization: a job does it; answered queued. */
  async send(caller: FilesCaller, examId: string, input: DicomSendRequest, ctx: AuditContext): Promise<DicomSend> {
    const exam = await store.findExam(this.db, examId);
    if (!exam) throw errors.notFound('Exam');
    await refuseMaskedFiles(this.db, ctx, caller, exam, 'POST exams/:examId/dicom-sends');
    const destination = await this.destination(exam.bucketId, input.destinationId);
    const seriesUids = input.seriesUids ? [...new Set(input.seriesUids)] : null;
    if (seriesUids) {
      const found = await store.sendInstances(this.db, exam.id, seriesUids);
      if (found.length === 0) throw new AppError('ValidationError', 'None of these series is in the study');
    }
    const row = await this.queueSend({
      bucketId: exam.bucketId,
      examId: exam.id,
      destinationId: destination.id,
      destinationAe: destination.aeTitle,
      seriesUids,
      trigger: 'manual',
      ruleId: null,
      requestedBy: caller.account.id,
    });
    await auditExam(this.db, ctx, caller.account, 'exam.dicom_send', exam, {
      patientId: exam.patientId,
      details: { sendId: row.id, destination: destination.aeTitle, seriesUids },
    });
    return presentSend(row);
  }

  /** Sends again, as a new send, what a failed send was to deliver. */
  async retry(caller: FilesCaller, examId: string, sendId: string, ctx: AuditContext): Promise<DicomSend> {
    const previous = await store.findSend(this.db, sendId);
    if (!previous || previous.examId !== examId) throw errors.notFound('Send');
    if (previous.status !== 'failed') throw new AppError('Conflict', 'Only a failed send can be sent again');
    if (!previous.destinationId) throw new AppError('Conflict', 'The destination device was removed');
    return this.send(
      caller,
      examId,
      { destinationId: previous.destinationId, ...(previous.seriesUids ? { seriesUids: previous.seriesUids } : {}) },
      ctx,
    );
  }

  async examSends(examId: string): Promise<DicomSend[]> {
    return (await store.examSends(this.db, examId)).map(presentSend);
  }

  async bucketSends(bucketId: string): Promise<DicomSend[]> {
    return (await store.bucketSends(this.db, bucketId)).map(presentSend);
  }

  /**
   * The ingest's hook: a new study arrived other than by DIMSE (upload, STOW-RS …), so from no AE
   * title. DIMSE arrivals come through onDimseArrival, which the DICOM listener calls with the AE.
   */
  onNewExam(examId: string, bucketId: string, source: string): void {
    if (source === 'dimse') return;
    this.track(this.onArrival(examId, bucketId, ''));
  }

  /** A new study arrived by C-STORE from `callingAe`. */
  onDimseArrival(examId: string, bucketId: string, callingAe: string): void {
    this.track(this.onArrival(examId, bucketId, callingAe));
  }

  private readonly arrivals = new Set<Promise<void>>();

  private track(arrival: Promise<void>): void {
    const work: Promise<void> = arrival
      .catch((err: unknown) => this.log.error({ err }, 'forwarding failed'))
      .finally(() => this.arrivals.delete(work));
    this.arrivals.add(work);
  }

  /** Resolves once every arrival under way has queued its forwarding job (shutdown, tests). */
  async whenIdle(): Promise<void> {
    while (this.arrivals.size > 0) await Promise.allSettled([...this.arrivals]);
  }

  /** When the study's organization forwards anything, a job looks at it once it is stable. */
  private async onArrival(examId: string, bucketId: string, sourceAe: string): Promise<void> {
    if (!(await store.hasEnabledRules(this.db, bucketId))) return;
    const runAfter = new Date(this.clock.now().getTime() + this.stableSeconds * 1000);
    await this.jobs.enqueue(this.db, FORWARD_JOB, { examId, bucketId, sourceAe }, 3, runAfter);
  }

  /** The forwarding job: waits until the study is stable, then makes a send per matching rule. */
  private async forward(job: JobRow): Promise<void> {
    const { examId, bucketId, sourceAe } = job.payload as { examId: string; bucketId: string; sourceAe: string };
    const exam = await store.findExam(this.db, examId);
    if (!exam || exam.bucketId !== bucketId) return;
    const facts = await store.examFacts(this.db, examId);
    const stableAt = (facts.lastArrival?.getTime() ?? 0) + this.stableSeconds * 1000;
    if (stableAt > this.clock.now().getTime()) {
      await this.jobs.enqueue(this.db, FORWARD_JOB, job.payload, 3, new Date(stableAt));
      return;
    }
    const rules = (await store.enabledRules(this.db, bucketId)).filter((r) =>
      ruleMatches(r.rule, { ...facts, sourceAe }),
    );
    for (const { rule, destination } of rules) {
      const send = await this.queueSend({
        bucketId,
        examId,
        destinationId: destination.id,
        destinationAe: destination.aeTitle,
        seriesUids: null,
        trigger: 'rule',
        ruleId: rule.id,
        requestedBy: null,
      });
      await auditExam(this.db, { ip: null, userAgent: 'forwarding' }, null, 'exam.dicom_send', exam, {
        patientId: exam.patientId,
        details: { sendId: send.id, destination: destination.aeTitle, ruleId: rule.id },
      });
    }
  }

  /** A send's row and the job that sends it, in one transaction. */
  private queueSend(values: Parameters<typeof store.insertSend>[1]) {
    return this.db.transaction(async (tx) => {
      const created = await store.insertSend(tx, values, this.clock.now());
      await this.jobs.enqueue(tx, SEND_JOB, { sendId: created.id }, SEND_ATTEMPTS);
      return created;
    });
  }

  /** A destination: a device of the organization with a host and a port; anything else is a 400. */
  private async destination(bucketId: string, id: string) {
    const device = await store.findDestination(this.db, bucketId, id);
    if (!device) throw new AppError('ValidationError', 'The destination is not a device of this organization');
    if (!device.host || !device.port) {
      throw new AppError('ValidationError', 'The destination device needs a host and a port to be sent to');
    }
    return device;
  }

  private values(input: RuleInput): store.RuleValues {
    return {
      name: input.name,
      destinationId: input.destinationId,
      modality: input.modality.toUpperCase(),
      sourceAe: input.sourceAe,
      bodyPart: input.bodyPart.toUpperCase(),
      enabled: input.enabled,
    };
  }

  private auditRule(actor: AccountRow, ctx: AuditContext, action: string, row: ForwardingRuleRow) {
    return writeAudit(this.db, ctx, {
      action,
      category: 'operation',
      outcome: 'success',
      actorId: actor.id,
      actorUsername: actor.username,
      targetType: 'forwarding_rule',
      targetId: row.id,
      bucketId: row.bucketId,
      details: {
        name: row.name,
        destinationId: row.destinationId,
        modality: row.modality,
        sourceAe: row.sourceAe,
        bodyPart: row.bodyPart,
        enabled: row.enabled,
      },
    });
  }
}

export type { ForwardingRuleInput };
