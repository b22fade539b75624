import crypto from 'node:crypto';
import { EMPTY_REPORT_CONTENT, hospitalDate, PACE_WINDOW_DAYS } from '@yyp/contracts';
import { and, eq, like } from 'drizzle-orm';
import { accounts, buckets, exams, patients, reports } from '../db/schema.js';
import type { Db } from '../platform/db.js';
import { seedDemoDesk, type HistoryExam } from './demo-history-desk.js';

/**
 * Six weeks of reporting history in the demo hospital's radiology (RH-RAD), so that a new user's
 * statistics (issue 26) have something to count: exams from 8 to 50 days before the first start
 * (today's and the last week's lists stay as the demo studies left them), each reported by the demo
 * doctor (some typed by the note-taker) and approved by the senior doctor, some positive. They are
 * records without images, numbered RH-H-…, made the same way on every first start (a fixed seed).
 * Nearly every one was registered at the front desk first (seed/demo-history-desk.ts), so the
 * turnaround from registration to approval has them too. The weekdays inside the calling screen's
 * pace window (contracts calling-wait.ts) start with a morning chest CT list, one patient every
 * 7 to 12 minutes, so the CT queue has a pace and /calling predicts its wait from the first start.
 */
const NAMES = [
  '李娜',
  '杨洋',
  '刘强',
  '黄敏',
  '吴磊',
  '徐丽',
  '孙杰',
  '马超',
  '朱琳',
  '胡军',
  '郭涛',
  '何平',
  '高峰',
  '林雪',
];
const KINDS = [
  { modality: 'CT', bodyPart: 'CHEST', desc: '胸部 CT 平扫', weight: 5, positive: 0.4, procedure: 'CT001' },
  { modality: 'CT', bodyPart: 'HEAD', desc: '头颅 CT 平扫', weight: 3, positive: 0.2, procedure: 'CT002' },
  { modality: 'MR', bodyPart: 'HEAD', desc: '头颅 MR 平扫', weight: 2, positive: 0.3, procedure: 'MR001' },
  { modality: 'DX', bodyPart: 'CHEST', desc: '胸部正位片', weight: 4, positive: 0.15, procedure: 'DX001' },
  { modality: 'MR', bodyPart: 'LSPINE', desc: '腰椎 MR', weight: 1, positive: 0.6, procedure: null },
];
const FIRST_DAY = 8;
const LAST_DAY = 50;

/** A small deterministic generator (mulberry32), so every demo shows the same history. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function seedDemoHistory(db: Db, now: Date): Promise<number> {
  const [bucket] = await db.select().from(buckets).where(eq(buckets.code, 'RH-RAD'));
  if (!bucket) return 0;
  const done = await db
    .select({ id: exams.id })
    .from(exams)
    .where(and(eq(exams.bucketId, bucket.id), like(exams.accessionNumber, 'RH-H-%')))
    .limit(1);
  if (done.length) return 0;
  const staff = new Map(
    (await db.select({ id: accounts.id, username: accounts.username }).from(accounts)).map((a) => [a.username, a.id]),
  );
  const writer = staff.get('doctor');
  const approver = staff.get('senior');
  if (!writer || !approver) return 0;
  const noteTaker = staff.get('notetaker') ?? null;
  const rnd = random(20261128);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const weighted = KINDS.flatMap((k) => Array<typeof k>(k.weight).fill(k));
  const history: HistoryExam[] = [];
  let n = 0;
  await db.transaction(async (tx) => {
    for (let daysAgo = LAST_DAY; daysAgo >= FIRST_DAY; daysAgo--) {
      const day = hospitalDate(now, -daysAgo);
      const weekend = [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
      const count = weekend ? 1 + Math.floor(rnd() * 2) : 3 + Math.floor(rnd() * 4);
      // A weekday inside the calling screen's pace window also has its morning chest CT list.
      const morning = !weekend && daysAgo < PACE_WINDOW_DAYS ? 6 + Math.floor(rnd() * 3) : 0;
      for (let i = 0; i < count + morning; i++) {
        n++;
        const kind = i < count ? pick(weighted) : KINDS[0]!;
        const name = pick(NAMES);
        const patientId = `RH-H${String(NAMES.indexOf(name) + 1).padStart(3, '0')}`;
        // Received between 08:00 and 17:00 hospital time (the morning list from 08:10, one every 7
        // to 12 minutes), approved 20 minutes to 6 hours later.
        const minuteOfDay =
          i < count ? 8 * 60 + Math.floor(rnd() * 540) : 8 * 60 + 10 + (i - count) * 9 + Math.floor(rnd() * 4) - 2;
        const received = new Date(Date.parse(`${day}T00:00:00+08:00`) + minuteOfDay * 60_000);
        const approved = new Date(received.getTime() + (20 + Math.floor(rnd() * 340)) * 60_000);
        const positive = rnd() < kind.positive;
        const bodyPartCount = kind.bodyPart === 'LSPINE' && rnd() < 0.5 ? 2 : 1;
        const [patient] = await tx
          .insert(patients)
          .values({
            id: crypto.randomUUID(),
            bucketId: bucket.id,
            patientKey: patientId,
            patientId,
            name,
            sex: rnd() < 0.5 ? 'M' : 'F',
            birthDate: `19${50 + Math.floor(rnd() * 45)}0${1 + Math.floor(rnd() * 9)}15`,
            createdAt: received,
            updatedAt: received,
          })
          .onConflictDoUpdate({ target: [patients.bucketId, patients.patientKey], set: { updatedAt: received } })
          .returning({ id: patients.id, name: patients.name, sex: patients.sex, birthDate: patients.birthDate });
        const examId = crypto.randomUUID();
        const storeUid = `1.2.826.0.1.3680043.10.543.${20261128}.${n}`;
        const accessionNumber = `RH-H-${String(n).padStart(4, '0')}`;
        await tx.insert(exams).values({
          id: examId,
          bucketId: bucket.id,
          storeUid,
          patientKeyId: patient!.id,
          patientName: patient!.name,
          patientId,
          patientGender: patient!.sex,
          patientDob: patient!.birthDate,
          accessionNumber,
          studyDate: day.replaceAll('-', ''),
          studyTime: '090000',
          studyDesc: kind.desc,
          studyId: String(n),
          modality: kind.modality,
          bodyPart: kind.bodyPart,
          institution: 'Renhe Hospital',
          referringPhysician: '',
          specificCharacterSet: 'ISO_IR 192',
          source: 'dimse',
          bodyPartCount,
          reportStatus: 'corrected',
          created: received,
          updated: approved,
        });
        await tx.insert(reports).values({
          id: examId,
          bucketId: bucket.id,
          status: 'corrected',
          version: 3,
          content: {
            ...EMPTY_REPORT_CONTENT,
            findings: positive ? `${kind.desc}：见异常密度/信号影。` : `${kind.desc}：未见明显异常。`,
            conclusion: positive ? '异常，建议随访复查。' : '未见明显异常。',
            positive,
            bodyPartCount,
          },
          creatorId: writer,
          lastUpdaterId: writer,
          issuerId: approver,
          approverId: approver,
          noteTakerId: noteTaker && rnd() < 0.25 ? noteTaker : null,
          savedAt: new Date(approved.getTime() - 15 * 60_000),
          submittedAt: new Date(approved.getTime() - 10 * 60_000),
          approvedAt: approved,
          createdAt: new Date(received.getTime() + 5 * 60_000),
          updatedAt: approved,
        });
        history.push({
          examId,
          accessionNumber,
          studyUid: storeUid,
          patientId,
          name: patient!.name,
          sex: patient!.sex,
          birthDate: patient!.birthDate,
          modality: kind.modality,
          bodyPart: kind.bodyPart,
          desc: kind.desc,
          procedureCode: kind.procedure,
          bodyPartCount,
          day,
          received,
        });
      }
    }
    // The desk's records from a generator of their own, so the reports above stay as they were.
    const registrar = staff.get('registrar');
    if (registrar) {
      const desk = { bucketId: bucket.id, groupId: bucket.groupId, registrar, tech: staff.get('tech') ?? null };
      await seedDemoDesk(tx, desk, history, random(20261129));
    }
  });
  return n;
}
