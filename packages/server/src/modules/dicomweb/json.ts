import type { exams, instances, series } from '../../db/schema.js';
import { personName } from '../../dicom/json-model.js';

/** DICOM JSON model (PS3.18 F.2) for QIDO answers, built from the archive rows. */
type Exam = typeof exams.$inferSelect;
type Series = typeof series.$inferSelect;
type Instance = typeof instances.$inferSelect;
type Attr = { vr: string; Value?: unknown[] };
type Json = Record<string, Attr>;

const str = (vr: string, v: string | null | undefined): Attr => (v ? { vr, Value: [v] } : { vr });
const num = (vr: string, v: number | null | undefined): Attr =>
  v === null || v === undefined ? { vr } : { vr, Value: [v] };
/** A stored person name, each value's groups apart (PS3.18 F.2.2), as the metadata answers it. */
const pn = (v: string): Attr => (v ? { vr: 'PN', Value: v.split('\\').map(personName) } : { vr: 'PN' });

export function studyJson(e: Exam, base: string): Json {
  return {
    '00080005': { vr: 'CS', Value: ['ISO_IR 192'] },
    '00080020': str('DA', e.studyDate),
    '00080030': str('TM', e.studyTime),
    '00080050': str('SH', e.accessionNumber),
    '00080061': e.modality ? { vr: 'CS', Value: e.modality.split('\\') } : { vr: 'CS' },
    '00080090': pn(e.referringPhysician),
    '00081030': str('LO', e.studyDesc),
    '00081190': { vr: 'UR', Value: [`${base}/studies/${e.storeUid}`] },
    '00100010': pn(e.patientName),
    '00100020': str('LO', e.patientId),
    '00100030': str('DA', e.patientDob),
    '00100040': str('CS', e.patientGender),
    '0020000D': { vr: 'UI', Value: [e.storeUid] },
    '00200010': str('SH', e.studyId),
    '00201206': num('IS', e.seriesCount),
    '00201208': num('IS', e.instanceCount),
  };
}

export function seriesJson(s: Series, e: Exam, base: string): Json {
  return {
    '00080005': { vr: 'CS', Value: ['ISO_IR 192'] },
    '00080060': str('CS', s.modality),
    '0008103E': str('LO', s.description),
    '00081190': { vr: 'UR', Value: [`${base}/studies/${e.storeUid}/series/${s.seriesUid}`] },
    '00180015': str('CS', s.bodyPart),
    '0020000D': { vr: 'UI', Value: [e.storeUid] },
    '0020000E': { vr: 'UI', Value: [s.seriesUid] },
    '00200011': num('IS', s.seriesNumber),
    '00201209': num('IS', s.instanceCount),
  };
}

export function instanceJson(i: Instance, s: Series, e: Exam, base: string): Json {
  return {
    '00080016': { vr: 'UI', Value: [i.sopClassUid] },
    '00080018': { vr: 'UI', Value: [i.sopInstanceUid] },
    '00081190': {
      vr: 'UR',
      Value: [`${base}/studies/${e.storeUid}/series/${s.seriesUid}/instances/${i.sopInstanceUid}`],
    },
    '00083002': { vr: 'UI', Value: [i.transferSyntaxUid] },
    '0020000D': { vr: 'UI', Value: [e.storeUid] },
    '0020000E': { vr: 'UI', Value: [s.seriesUid] },
    '00200013': num('IS', i.instanceNumber),
    '00280008': num('IS', i.frames),
    '00280010': num('US', i.rows),
    '00280011': num('US', i.columns),
  };
}
