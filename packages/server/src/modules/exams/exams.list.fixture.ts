import {
  DEMO_URGENT_COLOR_RULE,
  demoAccounts,
  demoDictionaries,
  demoRoles,
  type Action,
  type DemoRoleKey,
  type ExamPage,
} from '@yyp/contracts';
import { afterAll, beforeAll, expect } from 'vitest';
import { generateStudy, type StudyOptions } from '../../dicom/testdata/generate.js';
import type { IngestSource } from '../archive/index.js';
import {
  TEST_PASSWORD,
  joinGroup,
  joinOrganization,
  makeAccount,
  makeColorRule,
  makeGroup,
  makeOrganization,
  makeRole,
  signIn,
} from '../../test/factories.js';
import { makeAssignRule, makeDictionaryItem } from '../../test/factories-platform.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

export const fx = {
  t: undefined as unknown as TestApp,
  /** The hospital group (仁和医院) of RH-RAD and RH-US. */
  hospitalGroupId: '',
};
export const bucket: Record<string, string> = {};
export const id: Record<string, string> = {};
export const tok: Record<string, string> = {};
export const DAY = 86_400_000;

export async function ingest(bucketId: string, opts: StudyOptions, source: IngestSource = 'web'): Promise<string> {
  const study = generateStudy({ instancesPerSeries: 1, rows: 16, columns: 16, ...opts });
  let examId = '';
  for (const i of study.instances) examId = (await fx.t.services.archive.ingest(bucketId, i.bytes, source)).examId;
  fx.t.clock.advance(60_000);
  return examId;
}

export async function page(who: string, body: unknown): Promise<ExamPage> {
  const res = await fx.t.as(tok[who]!).post('exams/page-query', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ExamPage;
}

/** The names (A…F) of the exams a filter finds for the senior doctor, in list order. */
export async function find(filters: unknown[], who = 'senior'): Promise<string[]> {
  const names = new Map(Object.entries(id).map(([k, v]) => [v, k]));
  return (await page(who, { filters })).exams.map((e) => names.get(e.id) ?? e.id);
}
export const sorted = (xs: string[]) => [...xs].sort();

/** Moves the clock; the tokens (valid an hour) are renewed. */
export async function advance(ms: number): Promise<void> {
  fx.t.clock.advance(ms);
  for (const u of Object.keys(tok)) tok[u] = await login(u);
}

/** Signs in one of the fixture's staff (groupadmin, doctor, senior, tech, registrar, notetaker, teledoctor). */
export const login = (username: string): Promise<string> => signIn(fx.t, { username, password: TEST_PASSWORD });

type Staff = 'groupadmin' | 'doctor' | 'senior' | 'tech' | 'registrar' | 'notetaker' | 'teledoctor';

/**
 * The organizations and staff the study-list tests read, built as the demo had them: 仁和医院 (its
 * privacy turned on) with 放射科 RH-RAD and 超声科 RH-US, and 协和远程影像中心 (privacy on) with
 * 远程诊断中心 XH-TELE. The hospital's reporting role lacks view_privacy, so the doctor and the
 * note-taker see masks while the senior (审核医生) sees everything; the senior is content manager of
 * RH-US. Each organization has the demo dictionaries; each group the demo's CT assign rule (to its
 * reading doctor) and its 急诊 colour rule.
 */
async function buildStaff(t: TestApp): Promise<void> {
  const hospital = await makeGroup(t, { displayName: '仁和医院', enablePrivacy: true });
  const tele = await makeGroup(t, { displayName: '协和远程影像中心', enablePrivacy: true });
  fx.hospitalGroupId = hospital.groupId;
  const organization = async (groupId: string, name: string, code: string) =>
    (bucket[code] = (await makeOrganization(t, { groupId, name, code })).bucketId);
  const rad = await organization(hospital.groupId, '放射科', 'RH-RAD');
  const us = await organization(hospital.groupId, '超声科', 'RH-US');
  const remote = await organization(tele.groupId, '远程诊断中心', 'XH-TELE');

  const people = {} as Record<Staff, string>;
  for (const username of Object.keys({
    groupadmin: 0,
    doctor: 0,
    senior: 0,
    tech: 0,
    registrar: 0,
    notetaker: 0,
    teledoctor: 0,
  }) as Staff[]) {
    const name = demoAccounts.find((a) => a.username === username)!.name;
    people[username] = (await makeAccount(t, { username, name, signIn: false })).accountId;
  }
  await joinGroup(t, hospital.groupId, people.groupadmin, 1);
  const member = (
    bucketId: string,
    who: Staff,
    level: 'member' | 'admin' | 'collaborator' | 'contentManager' = 'member',
  ) => joinOrganization(t, bucketId, people[who], { level });
  await member(rad, 'groupadmin', 'admin');
  for (const who of ['doctor', 'senior', 'tech', 'registrar'] as const) await member(rad, who);
  await member(rad, 'notetaker', 'collaborator');
  await member(us, 'doctor');
  await member(us, 'senior', 'contentManager');
  await member(remote, 'teledoctor');

  const role = (bucketId: string, key: DemoRoleKey, holders: Staff[], without: readonly Action[] = []) =>
    makeRole(
      t,
      bucketId,
      demoRoles[key].actions.filter((a) => !without.includes(a)),
      { name: demoRoles[key].name, members: holders.map((h) => people[h]) },
    );
  const masked = ['view_privacy'] as const;
  await role(rad, 'reporting', ['doctor', 'notetaker'], masked);
  await role(rad, 'approving', ['senior']);
  await role(rad, 'technician', ['tech']);
  await role(rad, 'registrar', ['registrar']);
  await role(us, 'reporting', ['doctor'], masked);
  await role(remote, 'remoteReading', ['teledoctor']);

  for (const bucketId of [rad, us, remote]) {
    for (const [kind, names] of Object.entries(demoDictionaries)) {
      for (const name of names) await makeDictionaryItem(t, bucketId, kind, name);
    }
  }
  await makeAssignRule(t, hospital.groupId, { bucketIds: [rad], doctorId: people.doctor });
  await makeAssignRule(t, tele.groupId, { bucketIds: [remote], doctorId: people.teledoctor });
  for (const groupId of [hospital.groupId, tele.groupId]) {
    await makeColorRule(t, groupId, { ...DEMO_URGENT_COLOR_RULE });
  }
}

/** Exam A's patient and study, on both of its series (a Chinese name). */
const patientA = {
  patientName: '王^小东',
  charset: 'GB18030',
  patientId: 'PID-A001',
  accessionNumber: 'ACC_100%',
  patientSex: 'M',
  patientBirthDate: '19810615',
  studyDate: '20261120',
  bodyPartExamined: 'CHEST',
} as const;

/** The shared study-list fixture: six exams A…F in three organizations (buildStaff), and the callers' tokens. */
export function useExamListFixture(): void {
  beforeAll(async () => {
    fx.t = await startTestApp({ seed: false });
    await buildStaff(fx.t);
    // A: CT then an MR series of the same study (ModalitiesInStudy CT\MR), a Chinese name.
    const a = generateStudy({
      modality: 'CT',
      instancesPerSeries: 1,
      rows: 16,
      columns: 16,
      ...patientA,
    });
    id.A = (await fx.t.services.archive.ingest(bucket['RH-RAD']!, a.instances[0]!.bytes, 'web')).examId;
    await ingest(bucket['RH-RAD']!, {
      modality: 'MR',
      studyInstanceUid: a.studyInstanceUid,
      ...patientA,
    });
    id.B = await ingest(bucket['RH-RAD']!, {
      modality: 'MR',
      patientName: 'DOE^JANE',
      patientId: 'PID-B002',
      accessionNumber: 'ACC-200',
      patientSex: 'F',
      patientBirthDate: '20000101',
      studyDate: '20261001',
      bodyPartExamined: 'HEAD',
    });
    id.C = await ingest(
      bucket['RH-RAD']!,
      {
        modality: 'DX',
        patientName: 'SMITH^JOHN',
        patientId: 'XYZ-003',
        accessionNumber: 'ACC-300',
        patientSex: 'M',
        patientBirthDate: '19500101',
        studyDate: '20250101',
        bodyPartExamined: 'CHEST',
      },
      'dimse',
    );
    id.E = await ingest(bucket['RH-US']!, {
      modality: 'US',
      patientName: '李^四',
      charset: 'GB18030',
      patientId: 'US-0005',
      accessionNumber: 'ACC-500',
      patientSex: 'F',
      patientBirthDate: '19900101',
      studyDate: '20261121',
    });
    id.F = await ingest(bucket['XH-TELE']!, { modality: 'CT', patientName: 'TELE^PATIENT', patientId: 'TELE-06' });
    for (const u of ['senior', 'doctor', 'teledoctor', 'tech']) tok[u] = await login(u);
  });
  afterAll(async () => {
    await fx.t.close();
  });
}
