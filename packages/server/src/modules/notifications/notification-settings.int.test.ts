import type { MyNotificationSettings, NotificationList } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeAccount,
  makeExam,
  makeExamNotification,
  makeMember,
  makeOrganization,
  type BuiltAccount,
} from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let admin: BuiltAccount;
let doctor: BuiltAccount;
let bucketId: string;
let groupId: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  admin = await makeAccount(t, { platformAdmin: true });
  const org = await makeOrganization(t);
  bucketId = org.bucketId;
  groupId = org.groupId;
  doctor = await makeMember(t, org.bucketId, { actions: ['exam_get'] });
});
afterAll(async () => {
  await t.close();
});

describe('personal notification settings', () => {
  it('answers the defaults, then what the account saved; another account keeps its own', async () => {
    expect((await t.as(doctor.token).get('accounts/me/notification-settings')).json<MyNotificationSettings>()).toEqual({
      mutedKinds: [],
      sound: false,
    });
    const saved = await t.as(doctor.token).put('accounts/me/notification-settings', {
      mutedKinds: ['exam_uploaded'],
      sound: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<MyNotificationSettings>()).toEqual({ mutedKinds: ['exam_uploaded'], sound: true });
    expect((await t.as(doctor.token).get('accounts/me/notification-settings')).json()).toEqual({
      mutedKinds: ['exam_uploaded'],
      sound: true,
    });
    expect((await t.as(admin.token).get('accounts/me/notification-settings')).json()).toEqual({
      mutedKinds: [],
      sound: false,
    });
  });

  it('refuses an unknown kind or a missing field and changes nothing', async () => {
    const bad = await t.as(doctor.token).put('accounts/me/notification-settings', { mutedKinds: ['x'], sound: true });
    expect(bad.statusCode).toBe(400);
    const partial = await t.as(doctor.token).put('accounts/me/notification-settings', { sound: false });
    expect(partial.statusCode).toBe(400);
    expect((await t.as(doctor.token).get('accounts/me/notification-settings')).json()).toEqual({
      mutedKinds: ['exam_uploaded'],
      sound: true,
    });
    expect((await t.call('GET', 'accounts/me/notification-settings')).statusCode).toBe(401);
  });
});

describe('muted kinds in the bell', () => {
  it('still lists and counts a muted kind, answered quiet (no toast, no sound); the others are not quiet', async () => {
    const payload = (id: string) => ({
      id,
      patientName: 'Quiet^Patient',
      modality: 'CT',
      bodyPart: '',
      examTime: '2026-11-22T08:00:00',
      bucketName: 'rad',
    });
    const first = await makeExam(t, bucketId);
    const second = await makeExam(t, bucketId);
    for (const [exam, kind] of [
      [first.examId, 'exam_uploaded'],
      [second.examId, 'critical_value'],
    ] as const) {
      await makeExamNotification(t, {
        accountIds: [doctor.accountId],
        groupId,
        bucketId,
        kind,
        examId: exam,
        payload: payload(exam),
      });
    }
    const list = (await t.as(doctor.token).get('notifications')).json<NotificationList>();
    expect(list.unread).toBe(2);
    expect(list.sound).toBe(true);
    const quiet = Object.fromEntries(list.items.map((item) => [item.kind, item.quiet]));
    expect(quiet).toEqual({ exam_uploaded: true, critical_value: false });
    const status = (await t.as(doctor.token).get('notifications/status')).json<{ unread: number }>();
    expect(status.unread).toBe(2);
  });
});
