import { consultationCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { sendXlsx } from '../../platform/xlsx.js';
import type { PoliciesService } from '../policies/index.js';
import { actorOf, consultationSide } from './consultation-access.js';
import { ConsultationExamsService } from './consultation-exams.service.js';
import { exportConsultations, type ConsultationPager } from './consultation-export.js';
import { ConsultationFilesService } from './consultation-files.service.js';
import { ConsultationPrintService } from './consultation-print.service.js';
import type { ConsultationServices } from './consultations.routes.js';

export interface ConsultationFilesServices {
  exams: ConsultationExamsService;
  files: ConsultationFilesService;
  print: ConsultationPrintService;
  /** the caller's list, for the export */
  lists: ConsultationPager;
  clock: Clock;
}

/**
 * The services of these routes over the module's core (its detail answers the changes, its list the
 * export), made once by app-routes.ts.
 */
export function consultationFilesServices(deps: {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  policies: PoliciesService;
  core: ConsultationServices;
}): ConsultationFilesServices {
  const detail = (actor: Parameters<ConsultationServices['consultations']['present']>[0], id: string) =>
    deps.core.consultations.present(actor, id);
  return {
    exams: new ConsultationExamsService(deps.db, deps.clock, detail),
    files: new ConsultationFilesService(deps.db, deps.clock, deps.policies, detail),
    print: new ConsultationPrintService(deps.db, deps.blobs, deps.clock),
    lists: deps.core.lists,
    clock: deps.clock,
  };
}

/**
 * The consultation's bound exams, case documents and files, print and export (contracts
 * consultation-calls.ts). A call on one consultation names the caller's side of it as its owner
 * (404 for another tenant); the service then checks the op by the rules (bindExam, unbindExam,
 * addCase, deleteCase, uploadResult, view, print).
 */
export function consultationFilesRoutes(app: FastifyInstance, db: Db, s: ConsultationFilesServices): void {
  const side = { action: 'bucket_read' as const, owner: consultationSide(db) };

  defineCallRoute(app, calls.addExams, {
    summary: 'Bind exams of the source organization; each is shared read-only with the target while it is open',
    auth: side,
    handler: (input) => s.exams.add(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.removeExam, {
    summary: "Unbind an exam; the target organization's copy goes",
    auth: side,
    handler: (input) => s.exams.remove(actorOf(input), input.params.id, input.params.examId),
  });
  defineCallRoute(app, calls.addCase, {
    summary: 'Add a case document (name, type, note)',
    auth: side,
    handler: (input) => s.files.addCase(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.removeCase, {
    summary: 'Delete a case document with its files',
    auth: side,
    handler: (input) => s.files.removeCase(actorOf(input), input.params.id, input.params.caseId),
  });
  defineCallRoute(app, calls.upsertAttachment, {
    summary:
      "Record a case file (caseId) or a result attachment uploaded with the caller's policies/consultations key: processing, then completed",
    auth: side,
    handler: (input) => s.files.upsert(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.removeAttachment, {
    summary: 'Delete a case file or a result attachment with its stored file',
    auth: side,
    handler: async (input) => {
      await s.files.remove(actorOf(input), input.params.id, input.params.fileId);
    },
  });
  defineCallRoute(app, calls.attachmentUrl, {
    summary: 'A short-lived download URL of a completed file (audited)',
    auth: side,
    handler: (input) => s.files.url(actorOf(input), input.params.id, input.params.fileId),
  });
  defineCallRoute(app, calls.print, {
    summary: "The conclusion as a PDF in chs, en or tib under the printing organization's template header (audited)",
    auth: side,
    handler: async (input) => {
      const { pdf, filename } = await s.print.pdf(actorOf(input), input.params.id, input.query);
      return input.reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(pdf.length))
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(pdf) as never;
    },
  });
  defineCallRoute(app, calls.export, {
    summary: "The caller's consultation list with its filters as .xlsx (at most 1,000; audited)",
    auth: 'account',
    handler: async (input) =>
      sendXlsx(input.reply, await exportConsultations(db, s.clock, s.lists, actorOf(input), input.body)),
  });
}
