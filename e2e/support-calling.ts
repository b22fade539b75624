import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { api, apiLogin } from './support.js';

/** Patient calling in the e2e specs (issue 23): the demo radiology's CT queue, a screen token, an arrival. */

const V1 = '/yyp/api/v1';

interface QueueTypeRow {
  id: string;
  displayName: string;
  modality: string;
  roomName: string;
}
interface QueueRow {
  id: string;
  queueNo: number;
  status: string;
  patientName: string;
}

/** The hospital's today (UTC+8), as the server dates scheduled exams and queues. */
export function hospitalToday(): string {
  return new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
}

/**
 * The registrar's calling organization (the demo radiology) with a CT queue announced as "CT 1"
 * (added when missing), today's open queue emptied (earlier specs' patients marked done), and a
 * waiting-room screen token issued for `label`.
 */
export async function ctQueueWithScreen(label: string) {
  const { accessToken: registrar } = await apiLogin('registrar');
  const buckets = await api<{ id: string; name: string }[]>(`${V1}/calling-buckets`, registrar);
  const bucketId = buckets.body[0]!.id;
  const types = await api<QueueTypeRow[]>(`${V1}/buckets/${bucketId}/queue-types`, registrar);
  let ct = types.body.find((t) => t.modality === 'CT');
  if (!ct) {
    const added = await api<QueueTypeRow>(`${V1}/queue-types/add`, registrar, {
      method: 'POST',
      body: JSON.stringify({ bucketId, displayName: 'CT', modality: 'CT', roomName: 'CT 1', urgentFirst: true }),
    });
    if (added.status !== 201) throw new Error(`queue type: ${added.status} ${JSON.stringify(added.body)}`);
    ct = added.body;
  }
  for (const row of await openQueue(registrar, bucketId, ct.id)) {
    await api(`${V1}/queue-exams/${row.id}/action`, registrar, {
      method: 'POST',
      body: JSON.stringify({ action: 'done' }),
    });
  }
  const issued = await api<{ token: string }>(`${V1}/buckets/${bucketId}/screen-tokens`, registrar, {
    method: 'POST',
    body: JSON.stringify({ label }),
  });
  if (issued.status !== 201) throw new Error(`screen token: ${issued.status} ${JSON.stringify(issued.body)}`);
  return { registrar, bucketId, queueTypeId: ct.id, screenToken: issued.body.token };
}

/** Today's open queue (waiting, called, missed) of one queue type. */
export async function openQueue(token: string, bucketId: string, queueTypeId: string): Promise<QueueRow[]> {
  const page = await api<{ items: QueueRow[] }>(`${V1}/queue-exams/query`, token, {
    method: 'POST',
    body: JSON.stringify({ bucketId, queueTypeId, statuses: ['waiting', 'called', 'missed'] }),
  });
  return page.body.items;
}

/** The desk registers a walk-in for a chest CT today and records the arrival (which checks the patient in). */
export async function registerArrived(registrar: string, bucketId: string, name: string): Promise<void> {
  const created = await api(`${V1}/registry`, registrar, {
    method: 'POST',
    body: JSON.stringify({
      bucketId,
      patient: { name, gender: 'M' },
      exams: [{ modality: 'CT', bodyPart: '胸部', studyDesc: '胸部CT平扫', scheduledDate: hospitalToday() }],
      arrive: true,
    }),
  });
  if (created.status !== 201) throw new Error(`registration: ${created.status} ${JSON.stringify(created.body)}`);
}

/**
 * The called patient `name` does not come: passed (/calling's 过号) to the missed list on the desk
 * and on the screen (as `masked`, within 2 s; `whileMissed` runs then, e.g. a screenshot), then
 * returned (回到队列): waiting on the desk again, gone from the screen's missed list.
 */
export async function passAndReturn(
  desk: Page,
  screen: Page,
  name: string,
  masked: string,
  whileMissed: () => Promise<void> = async () => undefined,
): Promise<void> {
  const called = desk.locator('.yyp-calling__list--called').getByRole('row').filter({ hasText: name });
  await called.getByRole('button', { name: /^过 ?号$/ }).click();
  const missed = desk.locator('.yyp-calling__list--missed').getByRole('row').filter({ hasText: name });
  await missed.waitFor();
  await screen.locator('.yyp-screen__missed').getByText(masked).waitFor({ timeout: 2_000 });
  await whileMissed();
  await missed.getByRole('button', { name: '回到队列' }).click();
  await desk.locator('.yyp-calling__list--waiting').getByRole('row').filter({ hasText: name }).waitFor();
  await screen.locator('.yyp-screen__missed').getByText(masked).waitFor({ state: 'detached', timeout: 2_000 });
}

/**
 * The technician presses the call key (F2) on /calling; the call-next answer is 200 and the
 * screen's main call shows `masked` within 1 s of it. Answers that main call.
 */
export async function callKeyShownWithin1s(desk: Page, screen: Page, masked: string): Promise<Locator> {
  const answered = desk.waitForResponse((r) => r.url().endsWith('/queue-exams/call-next'));
  await desk.keyboard.press('F2');
  expect((await answered).status()).toBe(200);
  const after = Date.now();
  const main = screen.locator('.yyp-screen__call--main').filter({ hasText: masked });
  await main.waitFor({ timeout: 5_000 });
  expect(Date.now() - after).toBeLessThan(1_000);
  return main;
}
