import type { exams } from '../../db/schema.js';
import type { DicomJson } from '../../dicom/json-model.js';
import { indexValue } from '../../dicom/parse.js';
import { studyJson } from './json.js';

type Exam = typeof exams.$inferSelect;

/**
 * Attributes the exam record answers for when it was corrected (the upload wizard's step 2, issue
 * 20 item 8): the files keep what they were sent with, so metadata read from a file would show
 * the old values. Each is the exam's column and its VR as the ingest indexes it.
 */
const EXAM_ATTRIBUTES = [
  ['00100010', 'patientName', 'PN'],
  ['00100020', 'patientId', 'LO'],
  ['00100030', 'patientDob', 'DA'],
  ['00100040', 'patientGender', 'CS'],
  ['00080050', 'accessionNumber', 'SH'],
] as const;

/** A header attribute as the ingest would have indexed it: values joined by '\', name groups by '='. */
function indexed(attr: DicomJson[string] | undefined, vr: string): string {
  const values = (attr?.Value ?? []).map((v) => {
    if (v !== null && typeof v === 'object') {
      const pn = v as { Alphabetic?: string; Ideographic?: string; Phonetic?: string };
      return [pn.Alphabetic ?? '', pn.Ideographic ?? '', pn.Phonetic ?? ''].join('=').replace(/=+$/, '');
    }
    return v === null || v === undefined ? '' : String(v);
  });
  return indexValue(values.join('\\').trim(), vr);
}

/**
 * `json` (a file's metadata) with the exam record's value for each patient attribute and the
 * accession number where the record differs from what the file says, i.e. where it was corrected
 * after the files arrived; a value the file and record agree on stays as the file has it (every
 * name group, the full length). `present`: only attributes the answer already carries.
 */
export function withExamValues(json: DicomJson, exam: Exam, present = false): DicomJson {
  let out = json;
  let fromExam: DicomJson | undefined;
  for (const [tag, column, vr] of EXAM_ATTRIBUTES) {
    if (present && !(tag in json)) continue;
    if (indexed(json[tag], vr) === exam[column]) continue;
    fromExam ??= studyJson(exam, '') as DicomJson;
    if (out === json) out = { ...json };
    out[tag] = fromExam[tag]!;
  }
  return out;
}
