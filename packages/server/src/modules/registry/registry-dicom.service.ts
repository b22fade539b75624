import { registryTransition, type ExamStatus, type RegistryAction } from '@yyp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ScheduledExamRow } from '../../db/schema.js';
import type { DimseCaller } from '../../dicom/dimse.js';
import { animalSex, matchesWorklistQuery, type WorklistItem, type WorklistQuery } from '../../dicom/mwl.js';
import type { MppsEvent, MppsResult, MppsState } from '../../dicom/mpps.js';
import type { Charset } from '../../dicom/text-encode.js';
import { writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { applyRegistrationFields } from '../exams/index.js';
import * as dicom from './registry-dicom.store.js';
import { transitionScheduledExam } from './registry.store.js';

/** DA (YYYYMMDD) → the registry's YYYY-MM-DD; '' stays ''. */
const isoOf = (da: string) => (da.length === 8 ? `${da.slice(0, 4)}-${da.slice(4, 6)}-${da.slice(6, 8)}` : '');
/** MPPS states → the machine's action. */
const MPPS_ACTION: Record<MppsState, RegistryAction> = {
  'IN PROGRESS': 'start',
  COMPLETED: 'perform',
  DISCONTINUED: 'discontinue',
};
/** The worklist's Scheduled Procedure Step Status of each status that is still to be performed. */
const STEP_STATUS: Partial<Record<ExamStatus, string>> = { Scheduled: 'SCHEDULED', Arrived: 'ARRIVED' };

/**
 * The registry seen from the modalities (issue 22): the Modality Worklist a device asks for
 * (C-FIND), the MPPS it reports (N-CREATE, N-SET), and the study it stores, tied to its scheduled
 * exam. Every move goes through contracts registryTransition as a modality's action.
 */
export class RegistryDicom {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** C-FIND (Modality Worklist): the calling device's scheduled steps that answer the query. */
  async worklist(caller: DimseCaller, query: WorklistQuery): Promise<WorklistItem[]> {
    const [device, rows] = await Promise.all([
      dicom.deviceByAe(this.db, caller.bucketId, caller.callingAe),
      dicom.worklistRows(
        this.db,
        caller.bucketId,
        caller.callingAe,
        { from: isoOf(query.startDate?.from ?? ''), to: isoOf(query.startDate?.to ?? '') },
        query.patientName,
      ),
    ]);
    if (!device) return [];
    const charset = (device.charset === 'GB18030' ? 'GB18030' : 'ISO_IR 192') as Charset;
    const items = rows.map((row) => ({
      charset,
      patientName: row.name,
      patientId: row.patientId,
      patientBirthDate: row.birthDate,
      ...(row.animal
        ? {
            patientSex: animalSex(row.gender).patientSex,
            animal: {
              species: row.animal.species,
              breed: row.animal.breed,
              responsiblePerson: row.animal.owner,
              sexNeutered: animalSex(row.gender).sexNeutered,
            },
          }
        : { patientSex: ['M', 'F', 'O'].includes(row.gender) ? row.gender : '' }),
      accessionNumber: row.accessionNumber,
      referringPhysicianName: row.orderPlacer,
      studyInstanceUid: row.studyInstanceUid,
      requestedProcedureId: row.requestedProcedureId,
      requestedProcedureDescription: row.procedureName || row.studyDesc,
      step: {
        modality: row.modality,
        scheduledStationAeTitle: row.stationAeTitle || device.aeTitle,
        startDate: row.scheduledDate.replace(/-/g, ''),
        startTime: row.scheduledTime ? `${row.scheduledTime.replace(':', '')}00` : '',
        description: row.studyDesc || row.procedureName,
        id: row.spsId,
        status: STEP_STATUS[row.status as ExamStatus] ?? 'SCHEDULED',
        performingPhysicianName: '',
      },
    }));
    const answered = items.filter((i) => matchesWorklistQuery(i, query));
    await writeAudit(
      this.db,
      { ip: null, userAgent: 'dicom' },
      {
        action: 'registry.worklist',
        category: 'phi',
        outcome: 'success',
        actorUsername: `dicom:${caller.callingAe}`,
        bucketId: caller.bucketId,
        details: { results: answered.length },
      },
    );
    return answered;
  }

  /**
   * MPPS: N-CREATE (IN PROGRESS) ties the instance to the scheduled exams its Scheduled Step
   * Attributes name and starts them; N-SET COMPLETED performs them, DISCONTINUED records why. A
   * procedure step yyp did not schedule is refused (processing failure): only scheduled exams are
   * tracked.
   */
  async mpps(caller: DimseCaller, event: MppsEvent): Promise<MppsResult> {
    const { attributes } = event;
    let rows: ScheduledExamRow[];
    if (event.kind === 'create') {
      if (await dicom.mppsExists(this.db, event.sopInstanceUid)) return 'duplicateInstance';
      rows = await dicom.scheduledForSteps(this.db, caller.bucketId, attributes.scheduledSteps ?? []);
      if (rows.length === 0) return 'processingFailure';
    } else {
      rows = await dicom.scheduledOfMpps(this.db, caller.bucketId, event.sopInstanceUid);
      if (rows.length === 0) return 'noSuchInstance';
    }
    // A step COMPLETED or DISCONTINUED takes no more changes (PS3.4 F.7.2.2.1).
    if (event.kind === 'set' && rows.some((r) => r.mppsStatus === 'COMPLETED' || r.mppsStatus === 'DISCONTINUED')) {
      return 'processingFailure';
    }
    const state = attributes.status ?? (event.kind === 'create' ? 'IN PROGRESS' : undefined);
    if (!state) return 'success';
    const action = MPPS_ACTION[state];
    const now = this.clock.now();
    for (const row of rows) {
      // COMPLETED after a study stored first (Performed already) is the machine's 'perform' too.
      const outcome = registryTransition(row.status as ExamStatus, action, { kind: 'modality' });
      if (!outcome.ok || !outcome.to) return 'processingFailure';
      const values: Partial<ScheduledExamRow> = { status: outcome.to, mppsStatus: state };
      if (event.kind === 'create') values.mppsUid = event.sopInstanceUid;
      if (action === 'start') Object.assign(values, { startedAt: now, arrivedAt: row.arrivedAt ?? now });
      if (action === 'perform') values.performedAt = row.performedAt ?? now;
      if (action === 'discontinue') values.discontinuedReason = attributes.discontinuationReason || 'DISCONTINUED';
      if (!(await transitionScheduledExam(this.db, row.id, row.status as ExamStatus, values, now))) {
        return 'processingFailure';
      }
      await this.audit(`registry.mpps.${action}`, caller, row, {
        mpps: event.sopInstanceUid,
        from: row.status,
        to: outcome.to,
      });
    }
    return 'success';
  }

  /** The ingest's onNewExam hook: a study stored with a scheduled exam's keys lands on it, Performed. */
  readonly onNewExam = (examId: string, bucketId: string): void => {
    const work: Promise<void> = this.matchStored(examId)
      .catch((err: unknown) =>
        this.log.error({ err, examId, bucketId }, 'matching a stored study to its schedule failed'),
      )
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  };

  /** Resolves once every match under way has finished (shutdown, tests). */
  async whenIdle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async matchStored(examId: string): Promise<void> {
    const found = (await dicom.scheduledForStoredExam(this.db, examId)).filter((f) => f.exam.status !== 'Cancelled');
    // A study answers one scheduled exam: the one with its Study Instance UID, else the first by accession number.
    const chosen = found.find((f) => f.exam.studyInstanceUid === f.storeUid) ?? found[0];
    if (!chosen) return;
    const { exam: row, registration } = chosen;
    // Storing the study performs it; Performed already (the MPPS said COMPLETED before the images
    // came), it stays so and takes the study.
    const outcome = registryTransition(row.status as ExamStatus, 'perform', { kind: 'modality' });
    if (!outcome.ok || !outcome.to) return;
    const to = outcome.to;
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      const moved = await transitionScheduledExam(
        tx,
        row.id,
        row.status as ExamStatus,
        { status: to, examId, performedAt: row.performedAt ?? now, arrivedAt: row.arrivedAt ?? now },
        now,
      );
      if (!moved) return;
      await applyRegistrationFields(
        tx,
        examId,
        {
          patientSource: registration.patientSource,
          inpatientId: registration.inpatientId,
          outpatientId: registration.outpatientId,
          bedNum: registration.bedNum,
          physicalExamId: registration.physicalExamId,
          patientPhone: chosen.patient.phone,
          applyDept: registration.applyDept,
          orderPlacer: registration.orderPlacer,
          clinicImpression: registration.clinicImpression,
          urgentFlag: registration.urgent,
          bodyPartCount: row.bodyPartCount,
          weight: registration.weight,
          height: registration.height,
          extensions: row.extensions,
        },
        now,
      );
      await this.audit(
        'registry.matched',
        { callingAe: 'store', bucketId: row.bucketId },
        row,
        { examId, from: row.status },
        tx,
      );
    });
  }

  private audit(
    action: string,
    caller: Pick<DimseCaller, 'callingAe' | 'bucketId'>,
    row: ScheduledExamRow,
    details: Record<string, unknown>,
    db: Db = this.db,
  ) {
    return writeAudit(
      db,
      { ip: null, userAgent: 'dicom' },
      {
        action,
        category: 'phi',
        outcome: 'success',
        actorUsername: `dicom:${caller.callingAe}`,
        targetType: 'scheduled_exam',
        targetId: row.id,
        bucketId: row.bucketId,
        details: { accessionNumber: row.accessionNumber, ...details },
      },
    );
  }
}
