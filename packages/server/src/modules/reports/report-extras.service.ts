import crypto from 'node:crypto';
import {
  maskPatientName,
  MAX_REPORT_SAMPLE_GRAPHS,
  type DiffTrace,
  type ReportContent,
  type ReportSampleGraph,
  type ReportStatus,
  type ReportTraceDetail,
  type ReportTraceItem,
  type SamplePoint,
  type TraceAction,
  type WorklistItem,
} from '@yyp/contracts';
import { callerScope } from '../../platform/access.js';
import { effectiveActions, examMasked, type BucketAction } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import type { ReportLibraryService } from '../report-library/index.js';
import { paintReportColors } from '../report-safety/index.js';
import { diffText } from './diff.js';
import type { Actor, ReportsService } from './reports.service.js';
import * as store from './reports.store.js';

const WORKLIST_DAYS = 30;

/** Marks must lie on the image. */
function checkPoints(points: SamplePoint[], graph: { width: number; height: number }): void {
  const outside = points.findIndex((p) => p.x > graph.width || p.y > graph.height);
  if (outside >= 0) throw errors.validation('A mark lies outside the sample graph', { point: outside });
}

/**
 * Around the report's lifecycle: its history trail and diffs, the reporting worklist and the
 * sample graphs placed on it. Access is checked with the lifecycle service's rules first.
 */
export class ReportExtrasService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly reports: ReportsService,
    private readonly library?: ReportLibraryService,
  ) {}

  /* ---------- sample graphs placed on the report ---------- */

  /** GET reports/{id}/sample-graphs: the organization's diagrams placed on the report, with their marks. */
  async sampleGraphs(actor: Actor, examId: string): Promise<{ graphs: ReportSampleGraph[] }> {
    this.reports.assertRead(actor);
    const reportId = await this.reports.reportIdOf(actor, examId);
    const rows = await store.placedGraphs(this.db, reportId);
    const graphs = await Promise.all(
      rows.map(async ({ placement, graph }, index) => ({
        id: placement.id,
        sampleGraphId: graph.id,
        title: graph.title,
        url: this.library ? await this.library.imageUrl(graph) : '',
        width: graph.width,
        height: graph.height,
        index,
        isPrinted: placement.isPrinted,
        points: placement.points,
      })),
    );
    return { graphs };
  }

  /** POST reports/{id}/sample-graphs: place one of the organization's sample graphs, with marks. */
  async placeSampleGraph(
    actor: Actor,
    examId: string,
    input: { sampleGraphId: string; points: SamplePoint[]; isPrinted?: boolean | undefined },
  ) {
    const reportId = await this.reports.assertEditing(actor, examId);
    const graph = await store.sampleGraphIn(this.db, actor.bucket.id, input.sampleGraphId);
    if (!graph) throw errors.notFound('Sample graph');
    checkPoints(input.points, graph);
    const placed = await this.db.transaction((tx) =>
      store.placeGraph(
        tx,
        {
          id: crypto.randomUUID(),
          reportId,
          sampleGraphId: graph.id,
          points: input.points,
          isPrinted: input.isPrinted ?? true,
          createdBy: actor.account.id,
        },
        MAX_REPORT_SAMPLE_GRAPHS,
      ),
    );
    if (!placed) {
      throw errors.validation(`A report holds at most ${MAX_REPORT_SAMPLE_GRAPHS} sample graphs`, {
        limit: MAX_REPORT_SAMPLE_GRAPHS,
      });
    }
    await this.reports.audit(actor, 'report.sample_graph_add', reportId, { sampleGraphId: graph.id });
    return this.sampleGraphs(actor, examId);
  }

  /** PATCH reports/{id}/sample-graphs/{placementId}: its marks and whether it prints. */
  async patchSampleGraph(
    actor: Actor,
    examId: string,
    placementId: string,
    change: { points?: SamplePoint[] | undefined; isPrinted?: boolean | undefined },
  ) {
    const reportId = await this.reports.assertEditing(actor, examId);
    if (change.points) {
      const placed = (await store.placedGraphs(this.db, reportId)).find((p) => p.placement.id === placementId);
      if (!placed) throw errors.notFound('Sample graph');
      checkPoints(change.points, placed.graph);
    }
    const set = {
      ...(change.points !== undefined ? { points: change.points } : {}),
      ...(change.isPrinted !== undefined ? { isPrinted: change.isPrinted } : {}),
    };
    if (!(await store.patchPlacement(this.db, reportId, placementId, set))) throw errors.notFound('Sample graph');
    return this.sampleGraphs(actor, examId);
  }

  /** DELETE reports/{id}/sample-graphs/{placementId}. */
  async removeSampleGraph(actor: Actor, examId: string, placementId: string) {
    const reportId = await this.reports.assertEditing(actor, examId);
    if (!(await store.removePlacement(this.db, reportId, placementId))) throw errors.notFound('Sample graph');
    await this.reports.audit(actor, 'report.sample_graph_remove', reportId, { placementId });
    return this.sampleGraphs(actor, examId);
  }

  /* ---------- trail ---------- */

  private traceItem(t: Awaited<ReturnType<typeof store.listTraces>>[number]): ReportTraceItem {
    return {
      id: t.id,
      action: t.action as TraceAction,
      actor: t.actorId ? { id: t.actorId, name: t.actorName } : null,
      at: t.at.toISOString(),
      statusFrom: t.statusFrom as ReportStatus,
      statusTo: t.statusTo as ReportStatus,
      version: t.version,
      reason: t.reason,
      changed: t.changed,
    };
  }

  /** GET reports/{id}/report-trace (report_trace). */
  async traces(actor: Actor, examId: string): Promise<{ traces: ReportTraceItem[] }> {
    const reportId = await this.reports.reportIdOf(actor, examId);
    const rows = await store.listTraces(this.db, reportId);
    await this.reports.audit(actor, 'report.trace_read', reportId);
    return { traces: rows.map((t) => this.traceItem(t)) };
  }

  /** GET reports/{id}/traces/{traceId}: one step with its content. */
  async traceDetail(actor: Actor, examId: string, traceId: string): Promise<ReportTraceDetail> {
    const reportId = await this.reports.reportIdOf(actor, examId);
    const row = await store.findTrace(this.db, reportId, traceId);
    if (!row) throw errors.notFound('Trace');
    await this.reports.audit(actor, 'report.trace_read', reportId, { traceId });
    return { ...this.traceItem(row), content: row.content };
  }

  /** GET reports/{id}/diff-trace?from&to: what changed between two steps, field by field. */
  async diff(actor: Actor, examId: string, fromId: string, toId: string): Promise<DiffTrace> {
    const reportId = await this.reports.reportIdOf(actor, examId);
    const [from, to] = await Promise.all([
      store.findTrace(this.db, reportId, fromId),
      store.findTrace(this.db, reportId, toId),
    ]);
    if (!from || !to) throw errors.notFound('Trace');
    const text = (c: ReportContent, field: 'findings' | 'conclusion' | 'note' | 'advice') => c[field] ?? '';
    const fields = (['findings', 'conclusion', 'note', 'advice'] as const).map((field) => ({
      field,
      parts: diffText(text(from.content, field), text(to.content, field)),
    }));
    await this.reports.audit(actor, 'report.trace_read', reportId, { from: fromId, to: toId });
    return { from: this.traceItem(from), to: this.traceItem(to), fields };
  }

  /* ---------- worklist ---------- */

  /** GET reports/{id}/worklist: the next exams to read, in every organization the caller reports or approves in. */
  async worklist(actor: Actor, examId: string): Promise<{ items: WorklistItem[] }> {
    this.reports.assertRead(actor);
    const { access, facts } = await callerScope(this.db, actor.account);
    const holding = (action: BucketAction) => facts.filter((b) => effectiveActions(access, b).has(action));
    const writeBuckets = holding('report_upsert').map((b) => b.id);
    const approveBuckets = holding('report_approval').map((b) => b.id);
    const byId = new Map(facts.map((b) => [b.id, b]));
    const since = new Date(this.clock.now().getTime() - WORKLIST_DAYS * 86_400_000);
    const rows = await store.worklist(this.db, {
      writeBuckets,
      approveBuckets,
      accountId: actor.account.id,
      exclude: examId,
      since,
    });
    const colors = await paintReportColors(
      this.db,
      rows.map((r) => ({ ...r, id: r.examId })),
    );
    return {
      items: rows.map((r) => ({
        examId: r.examId,
        patientName: examMasked(access, byId.get(r.bucketId)!, r) ? maskPatientName(r.patientName) : r.patientName,
        modality: r.modality,
        bodyPart: r.bodyPart,
        studyDate: r.studyDate,
        reportStatus: r.reportStatus as ReportStatus,
        urgent: r.urgent,
        reportColor: colors.get(r.examId) ?? null,
      })),
    };
  }
}
