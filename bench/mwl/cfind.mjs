// The modality's side of bench/mwl: Modality Worklist C-FIND queries sent with the project's own
// DIMSE test SCU (packages/server/dist/dicom/testdata/scu.js, on ul.ts) and identifiers written
// with its dataset writer; and the .wl files Orthanc's worklist plugin reads, written with the
// server's own worklist encoder (mwl.ts) as Part 10 files. The same client asks both archives.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { percentile, round } from '../lib/util.mjs';

/** The build whose dist the bench loads (BENCH_BUILD: another checkout's root; this repository by default). */
export const buildRoot =
  process.env.BENCH_BUILD || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
/** The build's commit: BENCH_COMMIT, else its git HEAD. */
export function buildCommit() {
  if (process.env.BENCH_COMMIT) return process.env.BENCH_COMMIT;
  try {
    return execFileSync('git', ['-C', buildRoot, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}
const dist = (p) => import(pathToFileURL(path.join(buildRoot, 'packages/server/dist', p)).href);

export async function loadDicom() {
  const [{ TestScu }, writer, mwl, part10, command] = await Promise.all([
    dist('dicom/testdata/scu.js'),
    dist('dicom/dataset-writer.js'),
    dist('dicom/mwl.js'),
    dist('dicom/part10.js'),
    dist('dicom/dimse-command.js'),
  ]);
  return { TestScu, ...writer, ...mwl, ...part10, COMMAND: command.COMMAND };
}

/**
 * A worklist C-FIND identifier as a modality sends it: the scheduled procedure step with its
 * station AE title, date and modality (and the keys it wants back), the patient keys, and a
 * patient name pattern when given. UTF-8 (ISO_IR 192).
 */
export function worklistIdentifier(d, { aeTitle, date, modality, patientName = '' }) {
  const t = d.MWL_TAG;
  const step = new d.DatasetBuilder('ISO_IR 192')
    .text(t.modality, 'CS', modality)
    .text(t.scheduledStationAeTitle, 'AE', aeTitle)
    .text(t.startDate, 'DA', date)
    .text(t.startTime, 'TM', '')
    .text(t.stepDescription, 'LO', '')
    .text(t.stepId, 'SH', '')
    .text(t.stepStatus, 'CS', '');
  return new d.DatasetBuilder('ISO_IR 192')
    .text(t.specificCharacterSet, 'CS', 'ISO_IR 192')
    .text(t.accessionNumber, 'SH', '')
    .text(t.referringPhysicianName, 'PN', '')
    .text(t.patientName, 'PN', patientName)
    .text(t.patientId, 'LO', '')
    .text(t.patientBirthDate, 'DA', '')
    .text(t.patientSex, 'CS', '')
    .text(t.studyInstanceUid, 'UI', '')
    .text(t.requestedProcedureDescription, 'LO', '')
    .text(t.requestedProcedureId, 'SH', '')
    .sequence(t.scheduledProcedureStepSequence, [step])
    .toBuffer(true);
}

/** One seeded scheduled exam (seed.mjs todaysWorklist row) as a Part 10 .wl file in UTF-8. */
export function worklistFile(d, row) {
  const item = {
    charset: 'ISO_IR 192',
    patientName: row.name,
    patientId: row.patient_id,
    patientBirthDate: row.birth_date,
    patientSex: ['M', 'F', 'O'].includes(row.gender) ? row.gender : '',
    accessionNumber: row.accession_number,
    referringPhysicianName: row.order_placer,
    studyInstanceUid: row.study_instance_uid,
    requestedProcedureId: row.requested_procedure_id,
    requestedProcedureDescription: row.procedure_name || row.study_desc,
    step: {
      modality: row.modality,
      scheduledStationAeTitle: row.station_ae_title,
      startDate: row.scheduled_date.replace(/-/g, ''),
      startTime: row.scheduled_time ? `${row.scheduled_time.replace(':', '')}00` : '',
      description: row.study_desc || row.procedure_name,
      id: row.sps_id,
      status: row.status === 'Arrived' ? 'ARRIVED' : 'SCHEDULED',
      performingPhysicianName: '',
    },
  };
  const none = {
    patientName: '',
    patientId: '',
    accessionNumber: '',
    modality: '',
    scheduledStationAeTitle: '',
    startDate: null,
    startTime: null,
    requested: [],
    stepRequested: [],
  };
  const dataset = d.encodeWorklistItem(item, none, 'ISO_IR 192').toBuffer(true);
  return d.toPart10(dataset, {
    sopClassUid: d.MWL_FIND_SOP_CLASS,
    sopInstanceUid: `${row.study_instance_uid}.1`,
    transferSyntaxUid: d.EXPLICIT_VR_LE,
  });
}

/**
 * Sends `identifier` `count` times (after `warmup` untimed ones), each on its own association as a
 * modality asking its worklist does, and times each from the C-FIND-RQ to the final response, and
 * from the association request to it. Answers the percentiles and the answers per query.
 */
export async function timeFinds(d, target, identifier, { count, warmup, timeoutMs = 60_000 }) {
  const findMs = [];
  const totalMs = [];
  const answers = new Set();
  const context = { id: 1, abstractSyntax: d.MWL_FIND_SOP_CLASS, transferSyntaxes: [d.EXPLICIT_VR_LE] };
  for (let i = 0; i < warmup + count; i++) {
    const start = performance.now();
    const scu = await d.TestScu.associate(target.dicomPort, {
      callingAe: target.callingAet,
      calledAe: target.aet,
      contexts: [context],
      maxPduLength: 65536,
    });
    // Nagle off on the SCU's socket too (as DCMTK's TCP_NODELAY does): the request's command and
    // data set go out as two writes, and the second must not wait for the first one's delayed ACK.
    scu.socket.setNoDelay(true);
    if (scu.ac.contexts[0]?.result !== 0) throw new Error(`${target.aet} refused the worklist context`);
    const sent = performance.now();
    scu.send(
      1,
      { commandField: d.COMMAND.cFindRq, affectedSopClassUid: d.MWL_FIND_SOP_CLASS, priority: 0 },
      identifier,
    );
    const responses = await scu.responsesUntilFinal(timeoutMs);
    const done = performance.now();
    await scu.release();
    const final = responses.at(-1).status;
    if (final !== 0) throw new Error(`${target.aet} answered the C-FIND with status 0x${final.toString(16)}`);
    answers.add(responses.length - 1);
    if (i < warmup) continue;
    findMs.push(done - sent);
    totalMs.push(done - start);
  }
  const stats = (v) => ({
    p50: round(percentile(v, 50), 2),
    p95: round(percentile(v, 95), 2),
    p99: round(percentile(v, 99), 2),
    mean: round(v.reduce((a, b) => a + b, 0) / v.length, 2),
  });
  return { queries: count, answers: [...answers], findMs: stats(findMs), withAssociationMs: stats(totalMs) };
}
