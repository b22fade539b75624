import {
  hospitalDate,
  registrationDetails,
  type Animal,
  type PatientInput,
  type PatientSource,
  type Registration,
  type RegistrationCreate,
  type RegistrationUpdate,
  type RegistryPatient,
} from '@yyp/contracts';
import { isApiError } from '../../api/errors';
import { birthDateFromAge } from './registryView';

/** One exam row of the form. */
export interface ExamRow {
  id?: string;
  procedureId: string | null;
  modality: string;
  bodyPart: string;
  scheduledDate: string;
  scheduledTime: string;
  deviceId: string | null;
}

/** The form's values: the registration's fields as the body carries them, plus the age helper. */
export interface RegistrationValues {
  patient: {
    id?: string;
    patientId: string;
    name: string;
    gender: PatientInput['gender'];
    birthDate: string;
    age?: number | null;
    phone: string;
    idCard: string;
    address: string;
    /** in a pet domain: the animal (species, breed, responsible person, disease history) */
    animal?: Animal | null;
  };
  patientSource: PatientSource;
  inpatientId: string;
  bedNum: string;
  outpatientId: string;
  physicalExamId: string;
  applyDept: string;
  orderPlacer: string;
  clinicImpression: string;
  urgent: boolean;
  note: string;
  /** kg */
  weight: number | null;
  /** cm */
  height: number | null;
  exams: ExamRow[];
}

export function emptyExam(now = new Date()): ExamRow {
  return {
    procedureId: null,
    modality: '',
    bodyPart: '',
    scheduledDate: hospitalDate(now),
    scheduledTime: '',
    deviceId: null,
  };
}

/** An empty animal, for the form of a pet domain. */
export const emptyAnimal = (): Animal => ({ species: '', breed: '', owner: '', diseaseHistory: '' });

export function emptyRegistration(now = new Date(), isPet = false): RegistrationValues {
  return {
    patient: {
      patientId: '',
      name: '',
      gender: 'U',
      birthDate: '',
      age: null,
      phone: '',
      idCard: '',
      address: '',
      ...(isPet ? { animal: emptyAnimal() } : {}),
    },
    patientSource: 'O',
    inpatientId: '',
    bedNum: '',
    outpatientId: '',
    physicalExamId: '',
    applyDept: '',
    orderPlacer: '',
    clinicImpression: '',
    urgent: false,
    note: '',
    weight: null,
    height: null,
    exams: [emptyExam(now)],
  };
}

/** The patient fields a patient found by the search fill in. */
export function patientValues(p: RegistryPatient): RegistrationValues['patient'] {
  return {
    id: p.id,
    patientId: p.patientId,
    name: p.name,
    gender: p.gender as PatientInput['gender'],
    birthDate: p.birthDate,
    age: null,
    phone: p.phone,
    idCard: p.idCard,
    address: p.address,
    ...(p.animal ? { animal: p.animal } : {}),
  };
}

/** A registration read from the server, as the edit form's values. */
export function registrationValues(r: Registration): RegistrationValues {
  return {
    patient: patientValues(r.patient),
    patientSource: r.patientSource,
    ...registrationDetails(r),
    exams: r.exams.map((e) => ({
      id: e.id,
      procedureId: e.procedureId,
      modality: e.modality,
      bodyPart: e.bodyPart,
      scheduledDate: e.scheduledDate,
      scheduledTime: e.scheduledTime,
      deviceId: e.deviceId,
    })),
  };
}

/** The id fields each patient source carries (spec 000 §3 Patient source); the others are sent empty. */
export const SOURCE_ID_FIELDS: Record<PatientSource, readonly (keyof RegistrationValues)[]> = {
  I: ['inpatientId', 'bedNum'],
  O: ['outpatientId'],
  NO: ['outpatientId'],
  P: ['physicalExamId'],
  E: [],
};

type Fields = Omit<RegistrationCreate, 'bucketId' | 'arrive'>;

/** The body fields of POST and PUT registry from the form's values. */
export function registrationFields(v: RegistrationValues, today: string): Fields {
  const ids = SOURCE_ID_FIELDS[v.patientSource];
  const idField = (name: 'inpatientId' | 'bedNum' | 'outpatientId' | 'physicalExamId') =>
    ids.includes(name) ? (v[name] ?? '').trim() : '';
  const { age, id, animal, ...patient } = v.patient;
  const birthDate = patient.birthDate || (typeof age === 'number' ? birthDateFromAge(age, today) : '');
  return {
    patient: { ...(id ? { id } : {}), ...patient, birthDate, ...(animal ? { animal } : {}) },
    patientSource: v.patientSource,
    inpatientId: idField('inpatientId'),
    bedNum: idField('bedNum'),
    outpatientId: idField('outpatientId'),
    physicalExamId: idField('physicalExamId'),
    applyDept: v.applyDept,
    orderPlacer: v.orderPlacer,
    clinicImpression: v.clinicImpression,
    urgent: v.urgent,
    note: v.note,
    weight: v.weight ?? null,
    height: v.height ?? null,
    exams: v.exams.map((e) => ({
      ...(e.id ? { id: e.id } : {}),
      procedureId: e.procedureId ?? null,
      modality: e.modality ?? '',
      bodyPart: e.bodyPart ?? '',
      scheduledDate: e.scheduledDate,
      scheduledTime: e.scheduledTime ?? '',
      deviceId: e.deviceId ?? null,
    })),
  };
}

export function createBody(
  bucketId: string,
  v: RegistrationValues,
  arrive: boolean,
  today: string,
): RegistrationCreate {
  return { bucketId, ...registrationFields(v, today), arrive };
}

/** PUT registry: the registration's version; the animal of its patient kept unless the form edits it (pet domains). */
export function updateBody(
  r: Pick<Registration, 'id' | 'version' | 'patient'>,
  v: RegistrationValues,
  today: string,
): RegistrationUpdate {
  const fields = registrationFields(v, today);
  const samePatient = v.patient.id === r.patient.id;
  return {
    id: r.id,
    version: r.version,
    ...fields,
    patient: samePatient && !fields.patient.animal ? { ...fields.patient, animal: r.patient.animal } : fields.patient,
  };
}

/** The form field a refusal names (400 details.field, e.g. "exams.0.scheduledDate"), as a form name path. */
export function refusedField(error: unknown): (string | number)[] | null {
  if (!isApiError(error) || typeof error.details !== 'object' || error.details === null) return null;
  const field = (error.details as { field?: unknown }).field;
  if (typeof field !== 'string' || field === '') return null;
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
